package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.Memory;
import dev.memfas.Scope;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

final class MemoryFilesTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private final MemoryFiles files = new MemoryFiles(60, 15);

    @Test
    void markdownIsChunkedByHeadings_withTheHeadingPathAsSource_andShortSectionsKept() throws Exception {
        String md = """
                # Project
                Intro line.

                ## Deploy
                Blue-green.

                ```
                # not a heading inside code
                ```

                ## Empty

                ### Child
                ok
                """;
        List<Memory> ms = files.parse("MEMORY.md", "MEMORY.md", md, NOW);

        assertThat(ms).extracting(Memory::source).containsExactly("MEMORY.md > Project",
                "MEMORY.md > Project > Deploy", "MEMORY.md > Project > Empty > Child");
        assertThat(ms.get(1).text()).contains("Blue-green.").contains("# not a heading inside code");
        assertThat(ms.get(2).text()).isEqualTo("ok");
        assertThat(ms).allSatisfy(m -> assertThat(m.metadata()).containsEntry("file", "MEMORY.md"));
    }

    @Test
    void jsonThatSpellsALoneSurrogate_isIndexed_notAnInternalError() throws Exception {
        // Found by fuzzing: the token counter rejected lone surrogates, which JSON escapes can make.
        List<Memory> memories = files.parse("m.json", "m.json", "[{\"text\": \"half a pair \\ud800 here\"}]", NOW);

        assertThat(memories).singleElement().satisfies(m -> assertThat(m.text()).isEqualTo("half a pair \ud800 here"));
        assertThat(MemoryFiles.tokens("\udc00 lone low, \ud83d\ude00 pair")).isPositive();
    }

    @Test
    void longSectionsSplitAtParagraphs_withinTheTarget_withOverlap() throws Exception {
        StringBuilder body = new StringBuilder("# Long\n");
        for (int i = 0; i < 12; i++) {
            body.append("Paragraph ").append(i).append(" says something about deploys and rollbacks today.\n\n");
        }
        List<Memory> ms = files.parse("notes/long.md", "long.md", body.toString(), NOW);

        assertThat(ms).hasSizeGreaterThan(2);
        assertThat(ms).allSatisfy(m -> assertThat(MemoryFiles.tokens(m.text())).isLessThanOrEqualTo(60));
        // Consecutive chunks share their boundary paragraph.
        for (int i = 1; i < ms.size(); i++) {
            String[] previous = ms.get(i - 1).text().split("\n\n");
            assertThat(ms.get(i).text()).startsWith(previous[previous.length - 1]);
        }
        assertThat(String.join(" ", ms.stream().map(Memory::text).toList())).contains("Paragraph 0", "Paragraph 11");
    }

    @Test
    void aParagraphWithoutBreaks_isCutAtSentencesAndWords() throws Exception {
        String oneLong = "word ".repeat(400);
        List<Memory> ms = files.parse("a.txt", "a.txt", oneLong, NOW);
        assertThat(ms).hasSizeGreaterThan(5);
        assertThat(ms).allSatisfy(m -> assertThat(MemoryFiles.tokens(m.text())).isLessThanOrEqualTo(60));
    }

    @Test
    void dailyLogs_takeTheirDateFromTheFileName() throws Exception {
        List<Memory> ms = files.parse("memory/2026-11-17.md", "2026-11-17.md", "# Day\nLag incident.\n", NOW);
        assertThat(ms).singleElement().satisfies(
                m -> assertThat(m.createdAt()).isEqualTo(Instant.parse("2026-11-17T00:00:00Z")));
    }

    @Test
    void frontMatter_setsIdAuthorDateTagsScopeKindPinned() throws Exception {
        String md = """
                ---
                id: note-1
                user: maria
                date: 2026-11-10
                tags: [java, style]
                scope: language:java
                kind: preference
                pinned: true
                extra: ignored
                ---
                # Style
                Records for values.
                """;
        Memory m = files.parse("notes/s.md", "s.md", md, NOW).get(0);
        assertThat(m.id()).isEqualTo("note-1");
        assertThat(m.author()).isEqualTo("maria");
        assertThat(m.createdAt()).isEqualTo(Instant.parse("2026-11-10T00:00:00Z"));
        assertThat(m.tags()).containsExactly("java", "style");
        assertThat(m.scope()).isEqualTo(Scope.language("java"));
        assertThat(m.kind()).isEqualTo("preference");
        assertThat(m.pinned()).isTrue();
    }

    @Test
    void malformedFrontMatter_isABadFile_namingTheProblem() {
        assertThatThrownBy(() -> files.parse("x.md", "x.md", "---\ntags: [a, b\n---\ntext\n", NOW))
                .isInstanceOf(MemoryFiles.BadFileException.class).hasMessageStartingWith("malformed front matter");
        assertThatThrownBy(() -> files.parse("x.md", "x.md", "---\nid: a\ntext without end\n", NOW))
                .hasMessage("front matter opened with '---' is never closed");
        assertThatThrownBy(() -> files.parse("x.md", "x.md", "---\ndate: yesterday\n---\ntext\n", NOW))
                .hasMessageContaining("date must be YYYY-MM-DD").hasMessageContaining("'yesterday'");
        assertThatThrownBy(() -> files.parse("x.md", "x.md", "---\nscope: galaxy\n---\ntext\n", NOW))
                .hasMessageContaining("scope must be");
    }

    @Test
    void idsAreStableForUnchangedChunks_andChangeWithTheText() throws Exception {
        String v1 = "# A\none\n\n# B\ntwo\n";
        String v2 = "# A\none\n\n# B\ntwo changed\n";
        List<Memory> a = files.parse("f.md", "f.md", v1, NOW);
        List<Memory> b = files.parse("f.md", "f.md", v1, NOW.plusSeconds(60));
        List<Memory> c = files.parse("f.md", "f.md", v2, NOW);
        assertThat(a).extracting(Memory::id).isEqualTo(b.stream().map(Memory::id).toList());
        assertThat(c.get(0).id()).isEqualTo(a.get(0).id());
        assertThat(c.get(1).id()).isNotEqualTo(a.get(1).id());
    }

    @Test
    void json_arrayOrMemoriesObjectOrLines() throws Exception {
        String json = """
                {"memories": [
                  {"text": "Kafka retention is 30 days.", "id": "k1", "tags": ["kafka"], "date": "2026-11-19"},
                  "plain string memory"
                ]}
                """;
        List<Memory> ms = files.parse("m.json", "m.json", json, NOW);
        assertThat(ms).extracting(Memory::text).containsExactly("Kafka retention is 30 days.", "plain string memory");
        assertThat(ms.get(0).id()).isEqualTo("k1");
        assertThat(ms.get(0).createdAt()).isEqualTo(Instant.parse("2026-11-19T00:00:00Z"));

        assertThat(files.parse("m.jsonl", "m.jsonl", "{\"text\":\"a\"}\n\n{\"text\":\"b\"}\n", NOW)).hasSize(2);
        assertThatThrownBy(() -> files.parse("m.jsonl", "m.jsonl", "{\"text\":\"a\"}\n{oops\n", NOW))
                .hasMessageStartingWith("line 2 is not JSON");
        assertThatThrownBy(() -> files.parse("m.json", "m.json", "[{\"txt\": 1}]", NOW))
                .hasMessage("item 1 has no \"text\" string");
        assertThatThrownBy(() -> files.parse("m.json", "m.json", "{\"a\": 1}", NOW))
                .hasMessageStartingWith("expected a JSON array");
    }

    @Test
    void badChunkSettingsAreRejected() {
        assertThatThrownBy(() -> new MemoryFiles(8, 0)).hasMessage("chunk target must be at least 16 tokens: 8");
        assertThatThrownBy(() -> new MemoryFiles(100, 100)).hasMessage(
                "chunk overlap must be in [0, target): 100 (target 100)");
    }
}
