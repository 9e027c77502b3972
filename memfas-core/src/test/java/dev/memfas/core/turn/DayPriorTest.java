package dev.memfas.core.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.memfas.Memory;
import dev.memfas.spi.StoredMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A candidate's cosine read with its day's: raised by a tenth of the mean of its day's best three. */
final class DayPriorTest {
    private static final Instant DAY_ONE = Instant.parse("2026-11-20T18:00:00Z");
    private static final Instant DAY_TWO = Instant.parse("2026-11-21T09:00:00Z");

    private final CandidateSet candidates = new CandidateSet();
    private final List<Double> cosines = new ArrayList<>();

    private void add(String id, String source, Instant at, double cosine, boolean pinned) {
        Memory.Builder b = Memory.builder("text of " + id).id(id).createdAt(at).pinned(pinned);
        if (source != null) {
            b.source(source);
        }
        candidates.add(new StoredMemory(b.build(), 0, null, 1), (float) cosine, 0, false, -1);
        cosines.add(cosine);
    }

    private double[] raised() {
        double[] c = cosines.stream().mapToDouble(Double::doubleValue).toArray();
        DayPrior.raise(candidates, c, c.length);
        return c;
    }

    @Test
    void aDaysCandidates_areRaisedByATenthOfItsBestThreesMean() {
        candidates.reset(0);
        add("a1", "chat-1", DAY_ONE, 0.90, false);
        add("a2", "chat-1", DAY_ONE.plusSeconds(60), 0.40, false);
        add("a3", "chat-1", DAY_ONE.plusSeconds(120), 0.80, false);
        add("a4", "chat-1", DAY_ONE.plusSeconds(180), 0.20, false);
        add("a5", "chat-1", DAY_ONE.plusSeconds(240), 0.70, false);
        // The same source's next day, and another source's same day, are days of their own.
        add("b1", "chat-1", DAY_TWO, 0.60, false);
        add("c1", "chat-2", DAY_ONE, 0.50, false);
        add("c2", "chat-2", DAY_ONE.plusSeconds(30), 0.30, false);

        double[] c = raised();

        double dayOne = (0.90 + 0.80 + 0.70) / 3; // its best three, not all five
        assertThat(c[0]).isCloseTo(0.90 + 0.1 * dayOne, within(1e-12));
        assertThat(c[1]).isCloseTo(0.40 + 0.1 * dayOne, within(1e-12));
        assertThat(c[3]).isCloseTo(0.20 + 0.1 * dayOne, within(1e-12));
        assertThat(c[5]).isCloseTo(0.60 + 0.1 * 0.60, within(1e-12));
        assertThat(c[6]).isCloseTo(0.50 + 0.1 * 0.40, within(1e-12));
        assertThat(c[7]).isCloseTo(0.30 + 0.1 * 0.40, within(1e-12));
        // The answer a session says in passing now ranks above a lone memory that resembles the question more.
        add("lone", "chat-3", DAY_TWO, 0.43, false);
        assertThat(raised()[1]).isGreaterThan(raised()[8]);
    }

    @Test
    void candidatesNoneOfWhichHasADay_areLeftAsTheyAre() {
        candidates.reset(0);
        add("note-1", null, DAY_ONE, 0.70, false);
        add("pinned", "chat-1", DAY_ONE, 0.30, true);

        assertThat(raised()).containsExactly(0.70, 0.30);
    }

    @Test
    void memoriesWithoutADay_areRaisedByATenthOfThemselves_soTheirOrderStays() {
        candidates.reset(0);
        add("note-1", null, DAY_ONE, 0.70, false);
        add("note-2", null, DAY_ONE, 0.65, false);
        add("pinned", "chat-1", DAY_ONE, 0.30, true);
        add("turn", "chat-1", DAY_ONE, 0.60, false);
        add("unknown", null, DAY_ONE, Double.NaN, false);

        double[] c = raised();

        // The default source says no day, and a pinned memory is not grouped: each is a day of its own.
        assertThat(c[0]).isCloseTo(0.77, within(1e-12));
        assertThat(c[1]).isCloseTo(0.715, within(1e-12));
        assertThat(c[2]).isCloseTo(0.33, within(1e-12));
        assertThat(c[3]).isCloseTo(0.66, within(1e-12));
        assertThat(c[4]).isNaN();
    }
}
