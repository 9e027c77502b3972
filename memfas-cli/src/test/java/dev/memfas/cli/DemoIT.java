package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code memfas demo} with the real model, over the repository's sample set: it shows why curation matters. */
final class DemoIT {
    private static final Pattern SENT = Pattern.compile("sent (\\d+) of ([\\d,]+) tokens \\((\\d+\\.\\d)% saved\\)");

    @Test
    void demo_curatesHundredsOfNotes_intoTheBudget_findsTheNotesThatAnswer_andSaysWhatToTryNext() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path sample = Path.of("..", "docs", "examples", "memory").toAbsolutePath().normalize();

        int exit = Main.run(new String[] {"demo", "--from", sample.toString()}, new PrintWriter(out, true),
                new PrintWriter(err, true));

        String printed = out.toString();
        assertThat(exit).as(err.toString()).isZero();
        Matcher indexed = Pattern.compile("into (\\d+) memories").matcher(printed);
        assertThat(indexed.find()).isTrue();
        assertThat(Integer.parseInt(indexed.group(1))).isGreaterThanOrEqualTo(300);
        Matcher sent = SENT.matcher(printed);
        int turns = 0;
        while (sent.find()) {
            turns++;
            int used = Integer.parseInt(sent.group(1));
            int all = Integer.parseInt(sent.group(2).replace(",", ""));
            assertThat(used).isPositive().isLessThanOrEqualTo(600);
            assertThat(all).isGreaterThan(10 * 600);
        }
        assertThat(turns).isEqualTo(5);
        assertThat(printed).contains("-- why these memories").contains("legend:")
                .contains("max.poll.interval.ms").contains("from 7 to 30 days").contains("refunds in JPY")
                .contains("next: try it on your own notes");
        assertThat(printed).doesNotContain("usage long keep");
    }
}
