package dev.memfas.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Conversation;
import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.core.Memfas;
import dev.memfas.policy.FactExtractor;
import dev.memfas.sqlite.SqliteMemoryStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real curator's turns, measured into a Micrometer registry. */
final class MemfasMetersTest {

    @Test
    void everyTurn_becomesMeters_taggedWithItsNamespace() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (ContextCurator curator = Memfas.newBuilder().telemetryListener(new MemfasMeters(registry)).build()) {
            curator.rememberAll(List.of(Memory.builder("Deploys go out on Tuesdays.").build(),
                    Memory.builder("Acme deploys on Mondays.").namespace("acme").build()));
            curator.triggers().add(Trigger.of("deploy", "Check the migrations first."));

            ContextResponse first = curator.getContext(ContextRequest.builder("when do we deploy?").sessionId("s")
                    .baselineTokens(5_000).tokenBudget(400).build());
            curator.getContext(ContextRequest.builder("when does acme deploy?").namespace("acme").sessionId("s")
                    .build());

            assertThat(registry.get("memfas.turn").tag("namespace", "default").timer().count()).isEqualTo(1);
            assertThat(registry.get("memfas.turn").tag("namespace", "acme").timer().count()).isEqualTo(1);
            assertThat(registry.get("memfas.context.tokens").tag("namespace", "default").summary().totalAmount())
                    .isEqualTo(first.tokensUsed());
            assertThat(registry.get("memfas.context.budget").tag("namespace", "default").summary().totalAmount())
                    .isEqualTo(400);
            assertThat(registry.get("memfas.tokens.saved").tag("namespace", "default").counter().count())
                    .isEqualTo(5_000 - first.tokensUsed());
            assertThat(registry.get("memfas.memories.included").tag("namespace", "default").summary().totalAmount())
                    .isEqualTo(first.items().size());
            assertThat(registry.get("memfas.triggers.fired").tag("namespace", "default").counter().count())
                    .isEqualTo(1);
            assertThat(registry.find("memfas.triggers.fired").tag("namespace", "acme").counter()).isNull();

            curator.upkeep().reportUsage("default", "s", first.memoryIds(), true);
            curator.upkeep().reportUsage("default", "s", List.of("no-such-memory"), false);
            assertThat(registry.get("memfas.usage.reported").tag("helpful", "true").counter().count())
                    .isEqualTo(first.memoryIds().size());
            assertThat(registry.find("memfas.usage.reported").tag("helpful", "false").counter())
                    .as("a report that recorded nothing is no usage").isNull();
        }
    }

    @Test
    void aConversationsFacts_countTheirTokensAndPrice(@TempDir Path dir) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        // An extractor that says what a model would have spent: 1,200 tokens read, 80 written, for 0.0038.
        FactExtractor priced = new FactExtractor() {
            @Override
            public List<Fact> extract(List<Conversation.Message> messages) {
                return List.of(new Fact("The user prefers aisle seats.", "preference", List.of(0)));
            }

            @Override
            public Extraction extractWithCost(List<Conversation.Message> messages) {
                return new Extraction(extract(messages), 1_200, 80, 0.0038);
            }
        };
        try (ContextCurator curator = Memfas.newBuilder().store(SqliteMemoryStore.open(dir.resolve("m.db")))
                .telemetryListener(new MemfasMeters(registry)).factExtractor(priced).build()) {
            curator.memories().remember(Conversation.of("chat-1", List.of(
                    Conversation.Message.of("user", "I prefer aisle seats."))), false);

            assertThat(registry.get("memfas.facts.taken").tag("namespace", "default").counter().count())
                    .isEqualTo(1);
            assertThat(registry.get("memfas.facts.model.tokens").tag("direction", "input").counter().count())
                    .isEqualTo(1_200);
            assertThat(registry.get("memfas.facts.model.tokens").tag("direction", "output").counter().count())
                    .isEqualTo(80);
            assertThat(registry.get("memfas.facts.cost").counter().count()).isEqualTo(0.0038);
            assertThat(registry.find("memfas.facts.failed").counter()).isNull();
        }
    }
}
