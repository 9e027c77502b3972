package dev.memfas.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A smoke run of the speed suite: tiny sizes, one short iteration, no fork. Checks it runs and reports, not speed. */
final class SpeedSuiteTest {

    @Test
    void quickRun_reportsEveryBenchmarkAndBothRatios() throws Exception {
        String table = SpeedSuite.run("1000,5000", "1000", true, false);

        Pattern row = Pattern.compile("\\| ([\\d,]+) \\| ([\\d.]+) ms \\| ([\\d.]+) ms \\| ([\\d.]+) \\| ([\\d.]+) ms"
                + " \\| ([\\d.]+) ms \\| ([\\d.]+) ms \\| ([\\d.]+) \\|");
        Matcher m = row.matcher(table);
        int rows = 0;
        while (m.find()) {
            rows++;
            for (int g = 2; g <= 8; g++) {
                assertThat(Double.parseDouble(m.group(g))).as("column %d of %s", g, m.group()).isPositive();
            }
        }
        assertThat(rows).as(table).isEqualTo(2);
        // A quick run forks nothing, so it has no run without pre-touch: those columns are empty.
        assertThat(table).contains("| (c) turn p50, no pre-touch | no pre-touch / pre-touched |").contains("| – | – |");
        assertThat(table).containsPattern("\\(d\\) turn including the query embedding, 1,000 memories: p50 [\\d.]+ ms");
        assertThat(table).containsPattern("\\(f\\) a chat's turn, its latest six messages passed with it,"
                + " 1,000 memories: p50 [\\d.]+ ms, p95 [\\d.]+ ms; \\(f\\)/\\(d\\) [\\d.]+");
    }
}
