/**
 * Local sentence embeddings through DJL and ONNX Runtime (DjlEmbedder), implementing the Embedder extension point.
 */
package dev.memfas.djl;
