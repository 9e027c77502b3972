package dev.memfas.core.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.core.text.JTokkitTokenizer;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

final class MemoryIdsTest {
    @Test
    void anIdIsALetterAndTwentyOneDigits() {
        for (int i = 0; i < 1_000; i++) {
            assertThat(MemoryIds.random()).matches("m[0-9]{21}");
        }
    }

    @Test
    void idsDoNotRepeat_andEveryDigitTakesEveryValue() {
        Set<String> ids = new HashSet<>();
        int[][] seen = new int[21][10];
        for (int i = 0; i < 20_000; i++) {
            String id = MemoryIds.random();
            ids.add(id);
            for (int d = 0; d < 21; d++) {
                seen[d][id.charAt(d + 1) - '0']++;
            }
        }
        assertThat(ids).hasSize(20_000);
        for (int d = 0; d < 21; d++) {
            // 2,000 expected per value; a uniform draw falls under 1,700 (seven standard deviations) with a probability under 1e-11.
            for (int v = 0; v < 10; v++) {
                assertThat(seen[d][v]).as("digit %d = %d", d, v).isGreaterThan(1_700);
            }
        }
    }

    @Test
    void anIdCostsAFractionOfAUuidInALabel() {
        JTokkitTokenizer tokens = JTokkitTokenizer.cl100k();
        int uuid = 0;
        int ours = 0;
        for (int i = 0; i < 200; i++) {
            uuid += tokens.count("<memory id=\"" + UUID.randomUUID() + "\">");
            ours += tokens.count("<memory id=\"" + MemoryIds.random() + "\">");
        }
        assertThat(ours / 200.0).isLessThanOrEqualTo(13);
        assertThat(uuid / 200.0).isGreaterThan(2 * ours / 200.0);
    }
}
