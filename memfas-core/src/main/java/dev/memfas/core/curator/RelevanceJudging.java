package dev.memfas.core.curator;

import dev.memfas.core.turn.CandidateSet;
import dev.memfas.core.turn.Ranking;
import dev.memfas.core.turn.RelevanceCheck;
import dev.memfas.policy.RelevanceJudge;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The one call a turn makes to the curator's {@link RelevanceJudge}: the memories a relevance check shows it and the
 * state keys its globs matched go in one list, so a turn that asks for both waits for one answer and one timeout, not
 * one per kind or per glob. An answer that names anything it was not shown is set aside whole. Thread-safe.
 */
public final class RelevanceJudging implements AutoCloseable {
    private static final String FALLBACK = "the turn keeps its scores and chooses state by words and meaning";

    /**
     * What the judge chose, by kind; each null when the judge was not asked about that kind or gave no usable answer.
     */
    record Verdict(Set<String> memories, Set<String> state) {
        static final Verdict NONE = new Verdict(null, null);
    }

    private final RelevanceJudge judge;
    private final GuardedCall judging;

    /** @param judge the curator's judge, or null for none */
    RelevanceJudging(RelevanceJudge judge, Duration timeout) {
        this.judge = judge;
        this.judging = judge == null ? null : new GuardedCall("the relevance judge", timeout);
    }

    /**
     * The turn's one question to the judge: the best memories when the request asks for a relevance check
     * ({@link RelevanceCheck}), which leaves out what the judge did not choose and ranks anew, and the keys the
     * request's globs matched. {@link Verdict#NONE} without a judge or anything to ask, or when it fails.
     */
    Verdict judge(String goal, boolean check, CandidateSet candidates, Ranking ranking, StateSelection.Offer state) {
        if (judge == null) {
            return Verdict.NONE;
        }
        Verdict verdict = ask(goal, check ? RelevanceCheck.shown(candidates, ranking) : List.of(), state.candidates());
        if (verdict.memories() != null) {
            RelevanceCheck.apply(verdict.memories(), candidates, ranking);
            ranking.rank(candidates);
        }
        return verdict;
    }

    /** Asks once about both kinds; {@link Verdict#NONE} without a judge or candidates, or when it fails. */
    Verdict ask(String goal, List<RelevanceJudge.Candidate> memories, List<RelevanceJudge.Candidate> state) {
        if (judge == null || (memories.isEmpty() && state.isEmpty())) {
            return Verdict.NONE;
        }
        List<RelevanceJudge.Candidate> shown = new ArrayList<>(memories.size() + state.size());
        shown.addAll(memories);
        shown.addAll(state);
        List<String> chosen = judging.call(() -> judge.relevant(goal, List.copyOf(shown)), FALLBACK);
        if (chosen == null) {
            return Verdict.NONE;
        }
        Set<String> memoryIds = ids(memories);
        Set<String> stateKeys = ids(state);
        Set<String> memoriesChosen = new HashSet<>();
        Set<String> stateChosen = new HashSet<>();
        for (String id : chosen) {
            boolean memory = memoryIds.contains(id);
            boolean key = stateKeys.contains(id);
            if (!memory && !key) {
                judging.refused("named an id it was not shown", FALLBACK);
                return Verdict.NONE;
            }
            if (memory) {
                memoriesChosen.add(id);
            }
            if (key) {
                stateChosen.add(id);
            }
        }
        return new Verdict(memories.isEmpty() ? null : memoriesChosen, state.isEmpty() ? null : stateChosen);
    }

    private static Set<String> ids(List<RelevanceJudge.Candidate> candidates) {
        Set<String> out = new HashSet<>();
        candidates.forEach(c -> out.add(c.id()));
        return out;
    }

    @Override
    public void close() {
        if (judging != null) {
            judging.close();
        }
    }
}
