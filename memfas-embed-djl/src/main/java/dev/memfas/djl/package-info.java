/**
 * Local sentence embeddings through DJL and ONNX Runtime ({@link dev.memfas.djl.DjlEmbedder}).
 */
package dev.memfas.djl;
