package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.ScopeBudgets;
import dev.memfas.Trigger;
import dev.memfas.core.envelope.BudgetFiller;
import dev.memfas.core.text.JTokkitTokenizer;
import dev.memfas.spi.Tokenizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The budget invariant, over many random memory sets, budgets, scope shares and scripts. */
final class BudgetInvariantTest {
    private static final List<Scope> SCOPES = List.of(Scope.universal(), Scope.language("go"),
            Scope.project("hydra"), Scope.task("hydra", "debugging"));
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");
    private static final String[] WORDS = {
        "deploy", "kafka", "the", "database", "migration", "Ana", "prefers", "tests", "<memory_context>",
        "</relevant_memory>", "&amp;", "\"quoted\"", "记忆", "管理", "系统", "デプロイ", "🧠", "🚀🔥", "é", "naïve",
        "Straße", "שלום", "مرحبا", "\n", "\n\n", "  ", "...", "<|endoftext|>", "x".repeat(40), "1234567",
        "emoji👩‍👩‍👧", "\t", "lone\ud800surrogate", "\udc00", "a.", "b!", "c?"
    };

    @Test
    void oneItemTakesAFifthOfTheBudget_upToHalfOfASmallOne_andNeverMoreThanTheSetMaximum() {
        assertThat(BudgetFiller.itemCap(40, 400)).isEqualTo(24);
        assertThat(BudgetFiller.itemCap(60, 400)).isEqualTo(30);
        assertThat(BudgetFiller.itemCap(120, 400)).isEqualTo(60);
        assertThat(BudgetFiller.itemCap(320, 400)).isEqualTo(64);
        assertThat(BudgetFiller.itemCap(512, 400)).isEqualTo(102);
        assertThat(BudgetFiller.itemCap(1024, 400)).isEqualTo(204);
        assertThat(BudgetFiller.itemCap(4096, 400)).isEqualTo(400);
        assertThat(BudgetFiller.itemCap(4096, 100)).isEqualTo(100);
    }

    /**
     * Sources as items name them: the default one (left out of the label), plain and punctuated ones, ones that need
     * escaping and ones outside ASCII, so that the labels' counts are checked too.
     */
    private static final List<String> SOURCES = List.of(Memory.DEFAULT_SOURCE, Memory.DEFAULT_SOURCE, "chat-42",
            "notes.md#Deploy", "a \"quoted\" <source> & more", "x)", "日本語のメモ", "memory/2026-11-20.md", "42");

    /**
     * Ids ending in a letter or digit, whose items' savings under a day heading are measured once per source and day,
     * and ids ending otherwise, measured each.
     */
    private static final String[] ID_SHAPES = {"m%d", "m%d", "D%d:3", "m%d-", "m%d)", "«%d»", "m%d\"", "%d.",
        "记忆%d"};

    @Test
    void tokensUsed_isExactCountOfContext_andNeverExceedsBudget() {
        Random random = new Random(20261122L);
        Tokenizer tokenizer = JTokkitTokenizer.cl100k();
        int checked = 0;
        for (int round = 0; round < 300; round++) {
            boolean withEmbedder = random.nextBoolean();
            Memfas.Builder builder = Memfas.newBuilder()
                    .clock(Clock.fixed(NOW, ZoneOffset.UTC))
                    .minScore(0.0);
            if (withEmbedder) {
                builder.embedder(new HashingEmbedder(32));
            }
            try (ContextCurator curator = builder.build()) {
                int count = 1 + random.nextInt(40);
                List<Memory> memories = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    memories.add(Memory.builder(randomText(random, 1 + random
                            .nextInt(random.nextInt(10) == 0 ? 900 : 60)))
                            .id(ID_SHAPES[random.nextInt(ID_SHAPES.length)].formatted(i))
                                    .createdAt(NOW.minus(Duration.ofHours(random.nextInt(5000))))
                            .source(SOURCES.get(random.nextInt(SOURCES.size())))
                            .scope(SCOPES.get(random.nextInt(SCOPES.size())))
                            .pinned(random.nextInt(10) == 0).build());
                }
                curator.rememberAll(memories);
                for (int k = 0; k < random.nextInt(4); k++) {
                    curator.state().save("default", "deploy/" + k, jsonString(randomText(random,
                            1 + random.nextInt(300))));
                }
                if (random.nextBoolean()) {
                    curator.triggers().add(Trigger.of("deploy", randomText(random, 1 + random.nextInt(30)),
                            "m" + random.nextInt(count)));
                }
                for (int q = 0; q < 3; q++) {
                    int budget = 1 + random.nextInt(random.nextBoolean() ? 200 : 8000);
                    String query = randomText(random, 1 + random.nextInt(8)) + " deploy";
                    ContextRequest.Builder request = ContextRequest.builder(query).sessionId("s" + round)
                            .tokenBudget(budget);
                    if (random.nextBoolean()) {
                        request.scopeBudgets(new ScopeBudgets(random.nextInt(800), random.nextInt(800),
                                1 + random.nextInt(800))).project("hydra");
                    }
                    request.groupByScope(random.nextBoolean());
                    if (random.nextBoolean()) {
                        request.state("deploy/*", "deploy/0");
                    }
                    ContextResponse r = curator.getContext(request.build());

                    assertThat(r.tokensUsed()).as("round %d budget %d", round, budget)
                            .isEqualTo(tokenizer.count(r.context()))
                            .isLessThanOrEqualTo(budget);
                    assertThat(r.budget()).isEqualTo(budget);
                    if (r.context().isEmpty()) {
                        assertThat(r.items()).isEmpty();
                    } else {
                        assertThat(r.context()).startsWith("<memory_context").endsWith("</memory_context>");
                    }
                    assertThat(r.items().size() + r.memoriesDropped())
                            .isGreaterThanOrEqualTo(r.memoriesScored());
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(900);
    }

    /** The text as a JSON string, whatever it holds. */
    private static String jsonString(String text) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    private static String randomText(Random random, int words) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(WORDS[random.nextInt(WORDS.length)]);
        }
        String s = sb.toString();
        return s.isBlank() ? "blank" : s;
    }
}
