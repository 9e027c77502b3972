package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.DuplicatePolicy;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.core.Memfas;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Supersession and write-time duplicates with the default model, whose cosines are what the defaults were set by. */
final class LifecycleWithModelTest {
    private static final Instant NOW = Instant.parse("2026-11-20T12:00:00Z");
    private static DjlEmbedder embedder;

    @BeforeAll
    static void load() {
        embedder = DjlEmbedder.defaultModel();
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    private static ContextCurator curator(DuplicatePolicy duplicates) {
        return Memfas.newBuilder().embedder(embedder).clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .writeDuplicates(duplicates).build();
    }

    private static List<String> recalled(ContextCurator curator, RecallRequest.Builder request) {
        return curator.recall(request.build()).stream().map(h -> h.memory().id()).toList();
    }

    @Test
    void theSupersededOwner_givesWayToTheNewOne_andComesBackOnlyWhenAsked() {
        try (ContextCurator curator = curator(DuplicatePolicy.skipExact())) {
            curator.rememberAll(List.of(
                    Memory.builder("Checkout-api owner is Dev").id("dev").createdAt(NOW.minusSeconds(86_400 * 40))
                            .build(),
                    Memory.builder("Payments-api owner is Kim").id("kim").createdAt(NOW.minusSeconds(86_400 * 40))
                            .build(),
                    Memory.builder("Lunch is at noon on Fridays").id("lunch").createdAt(NOW.minusSeconds(86_400))
                            .build()));
            Memory aiko = Memory.builder("Aiko now owns checkout-api").id("aiko")
                    .createdAt(NOW.minusSeconds(86_400 * 3)).build();
            // Before it is told, the model ranks the old statement first: it matches the question's words better.
            curator.remember(aiko.toBuilder().id("aiko-draft").build());
            assertThat(recalled(curator, RecallRequest.builder("checkout-api owner"))).startsWith("dev");
            curator.forget("default", "aiko-draft");

            curator.supersede("dev", aiko);

            List<String> now = recalled(curator, RecallRequest.builder("checkout-api owner"));
            assertThat(now).startsWith("aiko").doesNotContain("dev");
            assertThat(curator.getContext(ContextRequest.builder("Who owns checkout-api?").sessionId("s").build())
                    .memoryIds()).startsWith("aiko").doesNotContain("dev");
            List<RecallHit> all = curator.recall(RecallRequest.builder("checkout-api owner").includeSuperseded(true)
                    .build());
            assertThat(all).extracting(h -> h.memory().id()).contains("aiko", "dev");
            assertThat(all.stream().filter(h -> h.memory().id().equals("dev")).findFirst().orElseThrow().memory()
                    .supersededBy()).isEqualTo("aiko");
            assertThat(recalled(curator, RecallRequest.builder("checkout-api owner")
                    .asOf(NOW.minusSeconds(86_400 * 10)))).startsWith("dev").doesNotContain("aiko");
        }
    }

    @Test
    void skipSimilar_skipsARewording_butNotAChangedFact() {
        try (ContextCurator curator = curator(DuplicatePolicy.skipSimilar(DuplicatePolicy.DEFAULT_SIMILARITY))) {
            Memory owner = curator.remember(Memory.builder("The checkout-api owner is Dev.").build());
            Memory retention = curator.remember(Memory.builder("Kafka retention is 7 days on the orders topic.")
                    .build());

            assertThat(curator.remember(Memory.builder("Dev owns the checkout-api service.").build()))
                    .isEqualTo(owner);
            assertThat(curator.remember(Memory.builder("Kafka retention is 14 days on the orders topic.").build())
                    .id()).isNotEqualTo(retention.id());
            assertThat(curator.remember(Memory.builder("Lunch is at noon.").build()).id())
                    .isNotIn(owner.id(), retention.id());
            assertThat(curator.get("default", owner.id()).orElseThrow().evidenceCount()).isEqualTo(2);
        }
    }

    @Test
    void skipExact_keepsRewordings_butSkipsTheSameTextWrittenDifferently() {
        try (ContextCurator curator = curator(DuplicatePolicy.skipExact())) {
            Memory deploys = curator.remember(Memory.builder("Deploys run on Fridays.").build());

            assertThat(curator.remember(Memory.builder("deploys run on fridays").build())).isEqualTo(deploys);
            assertThat(curator.remember(Memory.builder("We deploy on Fridays.").build()).id())
                    .isNotEqualTo(deploys.id());
        }
    }
}
