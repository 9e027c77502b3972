package dev.memfas;

/**
 * A snapshot of a curator's state, for dashboards and health checks.
 *
 * @param memories memories in the store, over all namespaces
 * @param vectors vectors held by the curator's index, over the namespaces it has loaded
 * @param triggers triggers over all namespaces
 * @param activeSessions sessions whose state is currently kept
 * @param turns {@code getContext} calls served since the curator was built
 * @param embedderModel the embedder's model id; empty when the curator has no embedder
 * @param tokenizer the tokenizer's id
 */
public record CuratorStats(
        long memories, long vectors, long triggers, int activeSessions, long turns, String embedderModel,
        String tokenizer) {}
