package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.Memory;
import java.time.Instant;
import org.junit.jupiter.api.Test;

final class MemoryTransferTest {
    @Test
    void markdownAndJson_roundTripExactly() {
        Memory m = Memory.builder("Body\n\n---\nnot front matter\n").id("a").tags("x").pinned(true)
                .createdAt(Instant.parse("2026-11-20T09:00:00.5Z")).build();

        assertThat(MemoryTransfer.fromMarkdown(MemoryTransfer.toMarkdown(m), "a.md")).isEqualTo(m);
        assertThat(MemoryTransfer.fromJsonLine(MemoryTransfer.toJsonLine(m), "a.jsonl line 1")).isEqualTo(m);
    }

    @Test
    void frontMatterKeyThatIsNotAName_isAnInputError_notACrash() {
        // Found by fuzzing: a YAML key such as "true" is a Boolean, and a cast to String failed.
        assertThatThrownBy(() -> MemoryTransfer.fromMarkdown("---\ntrue: x\n---\ntext", "bad.md"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("bad.md: unknown key 'true'");
        assertThatThrownBy(() -> MemoryTransfer.fromJsonLine("{\"text\":\"x\",\"pinned\":\"yes\"}", "f line 3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("f line 3: 'pinned' must be true or false: yes");
    }
}
