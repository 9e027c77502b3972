package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        List<Integer> used = new ArrayList<>();
        while (sent.find()) {
            used.add(Integer.parseInt(sent.group(1)));
            assertThat(Integer.parseInt(sent.group(2).replace(",", ""))).isGreaterThan(10 * 600);
        }
        assertThat(used).hasSize(6);
        assertThat(used.subList(0, 5)).allSatisfy(u -> assertThat(u).isPositive().isLessThanOrEqualTo(600));
        // The last question is about nothing stored: a new topic, and an empty context.
        assertThat(used.get(5)).isZero();
        List<String> shifts = printed.lines().filter(l -> l.contains("(topic shift)")).toList();
        assertThat(shifts).hasSize(1);
        assertThat(printed.indexOf(shifts.get(0))).isGreaterThan(printed.indexOf("which houseplants survive"));
        assertThat(printed).contains("-- why these memories").contains("legend:")
                .contains("max.poll.interval.ms").contains("from 7 to 30 days").contains("refunds in JPY")
                .contains("next: try it on your own notes");
        assertThat(printed).doesNotContain("usage long keep");
    }
}
