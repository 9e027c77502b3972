/**
 * Speed benchmarks and the retrieval-quality evaluation runner; never published.
 */
package dev.memfas.bench;
