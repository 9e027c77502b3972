package dev.memfas.core;

import dev.memfas.ContextItem;
import dev.memfas.Memory;
import dev.memfas.Scope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The pieces a turn's context is made of, by section, and how they are written out: the triggered section, then the
 * relevant one, whose items are, when the turn groups them by scope, under one {@code <scope name="...">} heading per
 * scope, the most specific first (a project's task, the project, the language, universal), each in the order its items
 * were placed. What a piece costs besides its own item ({@link #openingCost}) is known before it is placed, so the
 * budget filler counts headings as it goes. Kept by a {@link BudgetFiller.Scratch} for the next turn. Not thread-safe.
 */
final class EnvelopeLayout {
    /**
     * One piece of the context: a hint (text, no candidate), or a candidate's item, whole ({@code text} null: it is
     * written from the memory when the context is rendered) or cut ({@code text} the cut item, {@code kept} the part
     * of the memory's text it keeps).
     */
    record Piece(String text, int tokens, int candidate, boolean truncated, String kept) {
        /** A piece whose text is not a cut of a memory's. */
        Piece(String text, int tokens, int candidate, boolean truncated) {
            this(text, tokens, candidate, truncated, null);
        }
    }

    /** The state section's items, and the key of each. */
    final List<Piece> state = new ArrayList<>();
    final List<String> stateKeys = new ArrayList<>();
    final List<Piece> triggered = new ArrayList<>();
    final List<Piece> relevant = new ArrayList<>();
    /** The scopes with a heading so far, in the order their first item was placed. */
    private final List<Scope> groups = new ArrayList<>();
    private boolean grouped;

    void reset(boolean groupByScope) {
        state.clear();
        stateKeys.clear();
        triggered.clear();
        relevant.clear();
        groups.clear();
        grouped = groupByScope;
    }

    /** How many memories are placed, in either section. */
    int items() {
        int n = relevant.size();
        for (Piece p : triggered) {
            if (p.candidate() >= 0) {
                n++;
            }
        }
        return n;
    }

    boolean isEmpty() {
        return state.isEmpty() && triggered.isEmpty() && relevant.isEmpty();
    }

    /**
     * The tokens placing candidate {@code c} in the relevant section costs besides its item: the section's tags if it
     * is the section's first item, and its scope's heading if the turn groups by scope and it is the scope's first.
     */
    int openingCost(CandidateSet candidates, int c, int sectionTokens, ToIntFunction<Scope> headingTokens) {
        int cost = relevant.isEmpty() ? sectionTokens : 0;
        if (grouped) {
            Scope scope = candidates.memory(c).scope();
            if (!groups.contains(scope)) {
                cost += headingTokens.applyAsInt(scope);
            }
        }
        return cost;
    }

    /** Places an item in the relevant section, opening its scope's heading if need be. */
    void addRelevant(Piece p, CandidateSet candidates) {
        relevant.add(p);
        if (grouped) {
            Scope scope = candidates.memory(p.candidate()).scope();
            if (!groups.contains(scope)) {
                groups.add(scope);
            }
        }
    }

    /** Gives back the last piece placed: the relevant section's last, else the triggered section's, else state's. */
    void removeLast() {
        if (!relevant.isEmpty()) {
            relevant.remove(relevant.size() - 1);
        } else if (!triggered.isEmpty()) {
            triggered.remove(triggered.size() - 1);
        } else {
            state.remove(state.size() - 1);
            stateKeys.remove(stateKeys.size() - 1);
        }
    }

    /** The context as text. */
    String render(CandidateSet candidates, StringBuilder sb) {
        sb.setLength(0);
        sb.append(ContextEnvelope.open(candidates.today()));
        if (!state.isEmpty()) {
            sb.append(ContextEnvelope.STATE_OPEN);
            state.forEach(p -> sb.append(p.text()));
            sb.append(ContextEnvelope.STATE_CLOSE);
        }
        if (!triggered.isEmpty()) {
            sb.append(ContextEnvelope.TRIGGERED_OPEN);
            triggered.forEach(p -> append(sb, candidates, p));
            sb.append(ContextEnvelope.TRIGGERED_CLOSE);
        }
        if (!relevant.isEmpty()) {
            sb.append(ContextEnvelope.RELEVANT_OPEN);
            Scope heading = null;
            for (Piece p : inContextOrder(candidates)) {
                Scope scope = candidates.memory(p.candidate()).scope();
                if (grouped && !scope.equals(heading)) {
                    if (heading != null) {
                        sb.append(ContextEnvelope.SCOPE_CLOSE);
                    }
                    sb.append(ContextEnvelope.scopeOpen(scope));
                    heading = scope;
                }
                append(sb, candidates, p);
            }
            if (heading != null) {
                sb.append(ContextEnvelope.SCOPE_CLOSE);
            }
            sb.append(ContextEnvelope.RELEVANT_CLOSE);
        }
        return sb.append(ContextEnvelope.CLOSE).toString();
    }

    /**
     * The relevant section's pieces in the order the context lists them: as placed, or, grouped, by heading (the most
     * specific scope first, then in the order the headings were opened), each heading's as placed.
     */
    private List<Piece> inContextOrder(CandidateSet candidates) {
        if (!grouped) {
            return relevant;
        }
        List<Piece> ordered = new ArrayList<>(relevant.size());
        for (int rank = 0; rank < 4; rank++) {
            for (Scope scope : groups) {
                if (specificity(scope) != rank) {
                    continue;
                }
                for (Piece p : relevant) {
                    if (candidates.memory(p.candidate()).scope().equals(scope)) {
                        ordered.add(p);
                    }
                }
            }
        }
        return ordered;
    }

    private static int specificity(Scope scope) {
        return switch (scope.type()) {
            case PROJECT -> scope.hasTask() ? 0 : 1;
            case LANGUAGE -> 2;
            case UNIVERSAL -> 3;
        };
    }

    private static void append(StringBuilder sb, CandidateSet candidates, Piece p) {
        if (p.text() != null) {
            sb.append(p.text());
        } else {
            Memory m = candidates.memory(p.candidate());
            ContextEnvelope.appendMemory(sb, m, m.text(), candidates.age(p.candidate()));
        }
    }

    /** The filled context: its items in context order, and how many candidates were left out. */
    BudgetFiller.Filled result(String context, int tokens, CandidateSet candidates, int considered) {
        List<ContextItem> items = new ArrayList<>(triggered.size() + relevant.size());
        List<String> ids = new ArrayList<>(triggered.size() + relevant.size());
        int[] positions = new int[triggered.size() + relevant.size()];
        for (Piece p : triggered) {
            if (p.candidate() >= 0) {
                positions[ids.size()] = p.candidate();
                items.add(item(candidates, p, ContextItem.Section.TRIGGERED));
                ids.add(candidates.id(p.candidate()));
            }
        }
        for (Piece p : inContextOrder(candidates)) {
            positions[ids.size()] = p.candidate();
            items.add(item(candidates, p, ContextItem.Section.RELEVANT));
            ids.add(candidates.id(p.candidate()));
        }
        return new BudgetFiller.Filled(context, tokens, items, ids, Arrays.copyOf(positions, ids.size()),
                considered - ids.size(), List.copyOf(stateKeys));
    }

    private static ContextItem item(CandidateSet candidates, Piece p, ContextItem.Section section) {
        int c = p.candidate();
        Memory m = candidates.memory(c);
        return new ContextItem(m.id(), m.source(), section, candidates.layer(c), candidates.score(c),
                candidates.breakdown(c), p.tokens(), p.truncated(), p.kept() != null ? p.kept() : m.text());
    }
}
