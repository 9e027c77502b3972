/**
 * What store and model authors implement: {@link dev.memfas.spi.MemoryStore} and {@link dev.memfas.spi.SharedStore},
 * the records a store keeps ({@link dev.memfas.spi.StoredMemory}, {@link dev.memfas.spi.LexicalHit}), and the models a
 * curator uses ({@link dev.memfas.spi.Embedder} in its {@link dev.memfas.spi.VectorSpace},
 * {@link dev.memfas.spi.Tokenizer}). An agent that only curates never imports this package.
 */
package dev.memfas.spi;
