package dev.memfas.policy;

import dev.memfas.ContextRequest;
import java.util.List;
import java.util.Objects;

/**
 * Chooses which of a goal's candidates are relevant to it: the state keys a request may include
 * ({@link ContextRequest.Builder#state}), each shown by its key and the first characters of its value, and, for a
 * request that asks for a relevance check ({@link ContextRequest.Builder#relevanceCheck}), the best memories the
 * curator found, each shown by its id and the start of its text. A turn calls it at most once, with every candidate of
 * both kinds in one list (its timeout is the turn's whole wait), each candidate saying what it is. Plugged in
 * with {@code Memfas.Builder.relevanceJudge(judge, timeout)}; a model-backed judge lives in {@code memfas-llm}.
 *
 * <p>The curator consults a judge only for requests that ask for state or a relevance check, never on the default
 * path, and never trusts it: a judge that throws, takes longer than its timeout, or answers with an id it was not shown
 * is set aside for that turn and the curator's own choice is used: state by words and meaning, memories by their
 * scores (docs/state.md). Implementations must be thread-safe.
 */
@FunctionalInterface
public interface RelevanceJudge {

    /** What a candidate is. */
    enum Kind {
        /** A state key, shown with the start of its value. */
        STATE,
        /** A memory, shown with the start of its text. */
        MEMORY
    }

    /**
     * One thing the judge may choose.
     *
     * @param kind what it is; one call may hold both kinds
     * @param id what names it: the state key, or the memory's id
     * @param preview what it holds, cut to about 100 characters
     */
    record Candidate(Kind kind, String id, String preview) {
        /** Checks the parts are present. */
        public Candidate {
            Objects.requireNonNull(kind, "kind");
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
