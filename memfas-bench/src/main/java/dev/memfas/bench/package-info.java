/**
 * Speed benchmarks (JMH, run from the shaded {@code benchmarks.jar}) and the retrieval-quality evaluation runner;
 * never published.
 */
package dev.memfas.bench;
