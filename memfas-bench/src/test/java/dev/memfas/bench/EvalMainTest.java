package dev.memfas.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A smoke run of the evaluation on a tiny conversation written for this test, with the default model. */
final class EvalMainTest {
    @TempDir
    Path out;

    @Test
    void evaluatesTheFixture_andWritesJsonAndMarkdown() throws Exception {
        Path data = Path.of("src/test/resources/eval-fixture/dev");

        String md = EvalMain.run(data, out, new int[] {64, 512}, "bge-small-en-v1.5");

        assertThat(md).contains("| memfas | 64 |").contains("| recent | 512 |").contains("| bm25 | 512 |");
        assertThat(Files.readString(out.resolve("eval.md"))).isEqualTo(md);
        JsonNode json = JsonMapper.builder().build().readTree(Files.readString(out.resolve("eval.json")));
        assertThat(json.get("results")).hasSize(6);
        for (JsonNode row : json.get("results")) {
            // 4 questions with evidence in categories 1-4; the one without evidence is skipped, category 5 apart.
            assertThat(row.get("questions").asInt()).isEqualTo(4);
            assertThat(row.get("recall_cat1_4").asDouble()).isBetween(0.0, 1.0);
            assertThat(row.get("mean_tokens").asDouble()).isLessThanOrEqualTo(row.get("budget").asDouble());
        }
        JsonNode memfas512 = json.get("results").get(1);
        assertThat(memfas512.get("system").asString()).isEqualTo("memfas");
        // At 512 tokens the whole ten-turn conversation fits: every piece of evidence is found.
        assertThat(memfas512.get("recall_cat1_4").asDouble()).isEqualTo(1.0);
        assertThat(memfas512.get("recall_cat5").asDouble()).isEqualTo(1.0);
        JsonNode recent64 = json.get("results").get(2);
        assertThat(recent64.get("system").asString()).isEqualTo("recent");
        assertThat(recent64.get("recall_cat1_4").asDouble()).isLessThan(1.0);
    }
}
