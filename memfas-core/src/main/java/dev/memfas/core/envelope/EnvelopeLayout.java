package dev.memfas.core.envelope;

import dev.memfas.ContextItem;
import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.core.turn.CandidateSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The pieces a turn's context is made of, by section, and how they are written out: the triggered section, then the
 * relevant one. Items of the same source and day, two or more, are under one {@code <day date="..." source="...">}
 * heading, which says once what each would otherwise repeat (on LoCoMo 15 tokens an item, half of a short turn's label);
 * an item alone on its day says them itself, as a heading would cost more than it saves. The days are in the order
 * their first item was placed; a heading's items are in the order they were written, pinned ones too, so that a
 * memory's neighbors read as the conversation went. When the turn groups them by scope they are under one
 * {@code <scope name="...">} heading per scope instead, the most specific first (a project's task, the project, the
 * language, universal), each in the order its items were placed, and each item says its own source and date. What a
 * piece costs besides its own item ({@link #openingCost}) is known before it is placed, so the
 * budget filler counts headings as it goes. Kept by a {@link BudgetFiller.Scratch} for the next turn. Not thread-safe.
 */
final class EnvelopeLayout {
    /**
     * One piece of the context: a hint (text, no candidate), or a candidate's item, whole ({@code text} null: it is
     * written from the memory when the context is rendered) or cut ({@code text} the cut item, {@code kept} the part
     * of the memory's text it keeps, {@code marked} that part with the marks of where it was cut).
     */
    record Piece(String text, int tokens, int candidate, boolean truncated, String kept, String marked, int saving) {
        /** A piece whose text is not a cut of a memory's, and that is never under a day heading. */
        Piece(String text, int tokens, int candidate, boolean truncated) {
            this(text, tokens, candidate, truncated, null, null, 0);
        }

        /** A candidate's whole item, written from the memory when the context is rendered. */
        static Piece whole(int tokens, int candidate, int saving) {
            return new Piece(null, tokens, candidate, false, null, null, saving);
        }
    }

    /** The state section's items, and the key of each. */
    final List<Piece> state = new ArrayList<>();
    final List<String> stateKeys = new ArrayList<>();
    final List<Piece> triggered = new ArrayList<>();
    final List<Piece> relevant = new ArrayList<>();
    /** The scopes with a heading so far, in the order their first item was placed. */
    private final List<Scope> groups = new ArrayList<>();
    /** The days of the relevant items so far, in the order their first item was placed. */
    private final List<Day> days = new ArrayList<>();
    /** By day: how many relevant items it has, and what its first one saves under a heading. */
    private final java.util.Map<Day, int[]> dayItems = new java.util.HashMap<>();
    /** Each candidate's day, once looked up in this turn. */
    private Day[] dayOfCandidate = new Day[256];
    private boolean grouped;
    private boolean byDay;
    /** The relevant section in context order, once worked out for the pieces placed so far; null until then. */
    private List<Piece> contextOrder;

    /**
     * The source and day of a relevant item, as its day's heading names them: its UTC day, and the age the item is
     * dated by ({@link ContextEnvelope#age}), or null if by the day's date. The date is written only for a heading,
     * not for every candidate a turn looks up.
     */
    record Day(long epochDay, String source, String age) {
        /** What the heading dates the day by, as the item would: its age, or its date. */
        String label() {
            if (age != null) {
                return age;
            }
            StringBuilder date = new StringBuilder(10);
            ContextEnvelope.appendDate(date, start());
            return date.toString();
        }

        /** The day's first instant, UTC. */
        Instant start() {
            return Instant.ofEpochSecond(epochDay * 86_400L);
        }
    }

    /** Empties the layout for a turn of {@code candidates} candidates that groups its items by scope, or by day. */
    void reset(boolean groupByScope, int candidates) {
        if (dayOfCandidate.length < candidates) {
            dayOfCandidate = new Day[Math.max(candidates, 2 * dayOfCandidate.length)];
        } else {
            Arrays.fill(dayOfCandidate, 0, candidates, null);
        }
        state.clear();
        stateKeys.clear();
        triggered.clear();
        relevant.clear();
        contextOrder = null;
        groups.clear();
        days.clear();
        dayItems.clear();
        grouped = groupByScope;
        byDay = !groupByScope;
    }

    /** Whether relevant items that share a day go under its heading, without their own source and date. */
    boolean byDay() {
        return byDay;
    }

    /** Whether item {@code p} is under its day's heading: the relevant section has another item of its day. */
    private boolean underHeading(Piece p, CandidateSet candidates) {
        if (!byDay) {
            return false;
        }
        int[] items = dayItems.get(day(candidates, p.candidate()));
        return items != null && items[0] >= 2;
    }

    /** The tokens a relevant piece takes as rendered: fewer under its day's heading. */
    int renderedTokens(Piece p, CandidateSet candidates) {
        return underHeading(p, candidates) ? p.tokens() - p.saving() : p.tokens();
    }

    /** Candidate {@code c}'s day: its source and UTC day, and the day as its item would say it. */
    Day day(CandidateSet candidates, int c) {
        Day day = dayOfCandidate[c];
        if (day == null) {
            day = dayOf(candidates, c);
            dayOfCandidate[c] = day;
        }
        return day;
    }

    /** Whether the relevant section already has an item of candidate {@code c}'s day, so that it would share a heading. */
    boolean sharesDay(CandidateSet candidates, int c) {
        return byDay && !dayItems.isEmpty() && dayItems.containsKey(day(candidates, c));
    }

    private static Day dayOf(CandidateSet candidates, int c) {
        Memory m = candidates.memory(c);
        return new Day(ContextEnvelope.utcDay(m.createdAt()), m.source(), candidates.age(c));
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
     * The tokens placing candidate {@code c} in the relevant section costs besides its item (as counted with its source
     * and date): the section's tags if it is the section's first item; its scope's heading if the turn groups by scope
     * and it is the scope's first; else, if its day has an item already, less what it saves under the day's heading
     * ({@code saving}), and for the day's second item the heading, less what the first one saves under it. It can be
     * negative.
     */
    int openingCost(CandidateSet candidates, int c, int sectionTokens, HeadingCosts headings, int saving) {
        int cost = relevant.isEmpty() ? sectionTokens : 0;
        if (grouped) {
            Scope scope = candidates.memory(c).scope();
            if (!groups.contains(scope)) {
                cost += headings.scope(scope);
            }
        } else if (byDay) {
            int[] items = dayItems.isEmpty() ? null : dayItems.get(day(candidates, c));
            if (items != null && items[0] == 1) {
                // The second item of its day opens the heading, and both items leave their source and date to it.
                cost += headings.day(day(candidates, c)) - items[1] - saving;
            } else if (items != null) {
                cost -= saving;
            }
        }
        return cost;
    }

    /** Places an item in the relevant section, opening its scope's or day's heading if need be. */
    void addRelevant(Piece p, CandidateSet candidates) {
        relevant.add(p);
        contextOrder = null;
        if (grouped) {
            Scope scope = candidates.memory(p.candidate()).scope();
            if (!groups.contains(scope)) {
                groups.add(scope);
            }
        } else if (byDay) {
            Day day = day(candidates, p.candidate());
            int[] items = dayItems.get(day);
            if (items == null) {
                days.add(day);
                dayItems.put(day, new int[] {1, p.saving()});
            } else {
                items[0]++;
            }
        }
    }

    /** Gives back the last piece placed: the relevant section's last, else the triggered section's, else state's. */
    void removeLast(CandidateSet candidates) {
        if (!relevant.isEmpty()) {
            Piece last = relevant.remove(relevant.size() - 1);
            contextOrder = null;
            if (byDay) {
                Day day = day(candidates, last.candidate());
                int[] items = dayItems.get(day);
                if (--items[0] == 0) {
                    dayItems.remove(day);
                    days.remove(day);
                }
            }
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
            triggered.forEach(p -> append(sb, candidates, p, true));
            sb.append(ContextEnvelope.TRIGGERED_CLOSE);
        }
        if (!relevant.isEmpty() && byDay) {
            sb.append(ContextEnvelope.RELEVANT_OPEN);
            Day heading = null;
            for (Piece p : inContextOrder(candidates)) {
                Day day = day(candidates, p.candidate());
                boolean under = dayItems.get(day)[0] >= 2;
                if (heading != null && !day.equals(heading)) {
                    sb.append(ContextEnvelope.DAY_CLOSE);
                    heading = null;
                }
                if (under && heading == null) {
                    sb.append(ContextEnvelope.dayOpen(day.source(), day.label()));
                    heading = day;
                }
                appendRelevant(sb, candidates, p, under);
            }
            if (heading != null) {
                sb.append(ContextEnvelope.DAY_CLOSE);
            }
            sb.append(ContextEnvelope.RELEVANT_CLOSE);
        } else if (!relevant.isEmpty()) {
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
                append(sb, candidates, p, true);
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
        if (!byDay && !grouped) {
            return relevant;
        }
        if (contextOrder == null) {
            contextOrder = byDay ? byDay(candidates) : byScope(candidates);
        }
        return contextOrder;
    }

    private List<Piece> byDay(CandidateSet candidates) {
        // As written, pinned ones too: a match's neighbors around it, as the conversation went (a stable sort keeps
        // the placement order of memories written at the same instant).
        Comparator<Piece> asWritten = Comparator.comparing(p -> candidates.memory(p.candidate()).createdAt());
        List<Piece> ordered = new ArrayList<>(relevant.size());
        for (Day day : days) {
            int from = ordered.size();
            for (Piece p : relevant) {
                if (day(candidates, p.candidate()).equals(day)) {
                    ordered.add(p);
                }
            }
            ordered.subList(from, ordered.size()).sort(asWritten);
        }
        return ordered;
    }

    private List<Piece> byScope(CandidateSet candidates) {
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

    /** A relevant item: as placed, or under its day's heading without its source and date. */
    private static void appendRelevant(StringBuilder sb, CandidateSet candidates, Piece p, boolean underHeading) {
        if (!underHeading) {
            append(sb, candidates, p, true);
            return;
        }
        Memory m = candidates.memory(p.candidate());
        String text = p.truncated() ? p.marked() : m.text();
        ContextEnvelope.appendMemory(sb, m, text, null, false);
    }

    private static void append(StringBuilder sb, CandidateSet candidates, Piece p, boolean dated) {
        if (p.text() != null) {
            sb.append(p.text());
        } else {
            Memory m = candidates.memory(p.candidate());
            ContextEnvelope.appendMemory(sb, m, m.text(), candidates.age(p.candidate()), dated);
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
                items.add(item(candidates, p, ContextItem.Section.TRIGGERED, p.tokens()));
                ids.add(candidates.id(p.candidate()));
            }
        }
        for (Piece p : inContextOrder(candidates)) {
            positions[ids.size()] = p.candidate();
            items.add(item(candidates, p, ContextItem.Section.RELEVANT, renderedTokens(p, candidates)));
            ids.add(candidates.id(p.candidate()));
        }
        return new BudgetFiller.Filled(context, tokens, items, ids, Arrays.copyOf(positions, ids.size()),
                considered - ids.size(), List.copyOf(stateKeys));
    }

    private static ContextItem item(CandidateSet candidates, Piece p, ContextItem.Section section, int tokens) {
        int c = p.candidate();
        Memory m = candidates.memory(c);
        return new ContextItem(m.id(), m.source(), section, candidates.layer(c), candidates.score(c),
                candidates.breakdown(c), tokens, p.truncated(), p.kept() != null ? p.kept() : m.text());
    }
}
