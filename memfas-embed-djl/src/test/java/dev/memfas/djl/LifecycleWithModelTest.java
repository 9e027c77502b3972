package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.policy.DuplicatePolicy;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.policy.SupersessionPolicy;
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

            curator.memories().supersede("dev", aiko);

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

    @Test
    void supersessionApply_replacesAChangedFact_butNotAnotherFactAboutTheSameThing() {
        try (ContextCurator curator = Memfas.newBuilder().embedder(embedder).clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .supersession(SupersessionPolicy.apply(SupersessionPolicy.DEFAULT_SIMILARITY)).build()) {
            curator.rememberAll(List.of(
                    Memory.builder("Kafka retention is 7 days on the orders topic.").id("old")
                            .createdAt(NOW.minusSeconds(86_400 * 30)).source("chat-1").build(),
                    Memory.builder("The orders topic has 12 partitions.").id("partitions")
                            .createdAt(NOW.minusSeconds(86_400 * 30)).source("chat-1").build()));

            Memory update = curator.remember(Memory.builder("Kafka retention is 14 days on the orders topic.")
                    .id("new").createdAt(NOW.minusSeconds(86_400)).source("chat-2").build());

            assertThat(update.supersedes()).containsExactly("old");
            Memory old = curator.get("default", "old").orElseThrow().memory();
            assertThat(old.supersededBy()).isEqualTo("new");
            assertThat(old.validUntil()).isEqualTo(NOW.minusSeconds(86_400));
            assertThat(curator.get("default", "partitions").orElseThrow().memory().isSuperseded()).isFalse();
            assertThat(recalled(curator, RecallRequest.builder("orders topic retention")))
                    .contains("new", "partitions").doesNotContain("old");
        }
    }

    @Test
    void supersessionSuggest_namesTheCandidate_andChangesNothingElse() {
        try (ContextCurator curator = Memfas.newBuilder().embedder(embedder).clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .supersession(SupersessionPolicy.suggest(SupersessionPolicy.DEFAULT_SIMILARITY)).build()) {
            curator.remember(Memory.builder("I have 4 pairs of running shoes.").id("four")
                    .createdAt(NOW.minusSeconds(86_400 * 9)).build());
            curator.remember(Memory.builder("Checkout-api owner is Dev").id("dev")
                    .createdAt(NOW.minusSeconds(86_400 * 9)).build());

            Memory five = curator.remember(Memory.builder("I now have 5 pairs of running shoes.").id("five")
                    .createdAt(NOW.minusSeconds(86_400)).build());
            // 0.83 from the old owner: below the default similarity, as close as other facts about one service.
            Memory aiko = curator.remember(Memory.builder("Aiko now owns checkout-api").id("aiko")
                    .createdAt(NOW.minusSeconds(86_400)).build());

            assertThat(five.metadata()).containsEntry(SupersessionPolicy.SUGGESTION_KEY, "four");
            assertThat(five.supersedes()).isEmpty();
            assertThat(curator.get("default", "four").orElseThrow().memory().isSuperseded()).isFalse();
            assertThat(aiko.metadata()).doesNotContainKey(SupersessionPolicy.SUGGESTION_KEY);
        }
    }
}
