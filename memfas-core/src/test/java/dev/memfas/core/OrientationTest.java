package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.lifecycle.Orienteer;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.upkeep.Orientation;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Orientation after time away, on a fixed clock. */
final class OrientationTest {
    private static final Instant NOW = Instant.parse("2026-11-20T08:00:00Z");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void orient_saysWhenTheNamespaceWasLastSeen_andWhatWasStoredSince() {
        MutableClock clock = new MutableClock(NOW);
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        try (ContextCurator curator = Memfas.newBuilder().store(store).clock(clock).build()) {
            curator.rememberAll(List.of(Memory.builder("Deploys run on Tuesdays.").id("a").build(),
                    Memory.builder("Retention is seven days.").id("b").build()));

            Orientation first = curator.upkeep().orient("default", BERLIN);

            assertThat(first.lastSeen()).isNull();
            assertThat(first.away()).isNull();
            assertThat(first.added()).isEqualTo(2);
            assertThat(first.now().local().toString()).isEqualTo("2026-11-20T09:00+01:00[Europe/Berlin]");

            clock.advance(Duration.ofDays(3).plusHours(2));
            // An imported note about an old day is still new to the agent: it was stored after the last look.
            curator.remember(Memory.builder("The 2024 audit found no issues.").id("c")
                    .createdAt(Instant.parse("2024-06-01T00:00:00Z")).build());
            clock.advance(Duration.ofMinutes(5));
            curator.remember(Memory.builder("Aiko owns checkout-api now.").id("d").build());
            curator.memories().update("default", "a", b -> b.text("Deploys run on Tuesdays and Thursdays."));
            clock.advance(Duration.ofMinutes(1));

            Orientation back = curator.upkeep().orient("default", BERLIN);

            assertThat(back.lastSeen()).isEqualTo(NOW);
            assertThat(back.away()).isEqualTo(Duration.ofDays(3).plusHours(2).plusMinutes(6));
            assertThat(back.added()).as("c and d are new; a was changed, not added").isEqualTo(2);
            assertThat(back.newest()).extracting(Memory::id).containsExactly("d", "c");
            assertThat(store.loadState("default", Orienteer.LAST_SEEN)).hasValue(clock.instant().toString());
            assertThat(curator.upkeep().orient("default", BERLIN).added()).isZero();
            assertThat(curator.upkeep().orient("elsewhere", BERLIN).lastSeen()).isNull();
        }
    }
}
