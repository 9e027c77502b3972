package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class QuickStartTest {
    @Test
    void run_printsACuratedContextWithTheTriggeredRunbookFirst() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        QuickStart.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);

        // The newest memories are days old, so the envelope names the day and dates them by how long ago they were.
        assertThat(out).startsWith("<memory_context today=\"")
                .contains("\">\n<triggered_context>\n<hint trigger=\"deploy\">").contains("date=\"4 days ago\"");
        assertThat(out.indexOf("id=\"billing-migrations\"")).isLessThan(out.indexOf("<relevant_memory>"));
        assertThat(out).contains("id=\"bug-invoice-tz\"").contains("triggers [deploy]");
        assertThat(out).containsPattern("\\d+ of 300 tokens");
    }
}
