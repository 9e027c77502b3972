/**
 * The pluggable decisions of a curator: whether a tool's result is saved ({@link dev.memfas.policy.SavePolicy}),
 * whether a memory bears on a goal ({@link dev.memfas.policy.RelevanceJudge}), how memories are summarized,
 * deduplicated, superseded and retained, and when a query asks about the world rather than the memories
 * ({@link dev.memfas.policy.WorldKnowledgeProbe}). Each has a default; none is required.
 */
package dev.memfas.policy;
