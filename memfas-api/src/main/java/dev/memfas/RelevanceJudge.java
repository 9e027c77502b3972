package dev.memfas;

import java.util.List;
import java.util.Objects;

/**
 * Chooses which of a goal's candidates are relevant to it: the state keys a request may include
 * ({@link ContextRequest.Builder#state}), each shown by its key and the first characters of its value. Plugged in with
 * {@code Memfas.Builder.relevanceJudge(judge, timeout)}; a model-backed judge lives in {@code memfas-llm}.
 *
 * <p>The curator consults a judge only for requests that ask for state, never on the default path, and never trusts
 * it: a judge that throws, takes longer than its timeout, or answers with an id it was not shown is set aside for that
 * turn and the curator's own deterministic choice, by words and meaning, is used (docs/state.md). Implementations must be thread-safe.
 */
@FunctionalInterface
public interface RelevanceJudge {

    /**
     * One thing the judge may choose.
     *
     * @param id what names it: the state key
     * @param preview what it holds, cut to about 100 characters
     */
    record Candidate(String id, String preview) {
        /** Checks both are present. */
        public Candidate {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(preview, "preview");
        }
    }

    /**
     * The ids of the candidates relevant to the goal, in any order; none if none is.
     *
     * @param goal what the agent is about to do: the request's query
     * @throws Exception if it cannot decide; the curator falls back to its own choice
     */
    List<String> relevant(String goal, List<Candidate> candidates) throws Exception;
}
