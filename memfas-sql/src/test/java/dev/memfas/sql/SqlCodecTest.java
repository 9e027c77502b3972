package dev.memfas.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SqlCodecTest {
    /** Chars around every boundary the encoding has: ASCII, NUL, 2- and 3-byte, both surrogate halves, after them. */
    private static final char[] CHARS = {'a', 'Z', '\u0000', '\u007f', '\u0080', '\u07ff', '\u0800', '\ud7ff',
        '\ud800', '\udbff', '\udc00', '\udfff', '\ue000', '\uffff', '\u00e9', '\u8bb0'};

    @Test
    void text_anyString_readsBackExactly_validUtf8OrNot() {
        Random random = new Random(3);
        int withLoneSurrogates = 0;
        for (int k = 0; k < 20_000; k++) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(12);
            for (int i = 0; i < n; i++) {
                sb.append(CHARS[random.nextInt(CHARS.length)]);
            }
            String s = sb.toString();
            boolean lone = !s.codePoints().allMatch(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE);
            withLoneSurrogates += lone ? 1 : 0;
            assertThat(SqlCodec.decodeText(SqlCodec.encodeText(s))).isEqualTo(s);
        }
        assertThat(withLoneSurrogates).isBetween(1_000, 19_000);
    }

    @Test
    void text_withoutLoneSurrogates_isWrittenAsUtf8() {
        String s = "plain, é, 记忆, 🧠, nul \u0000";
        assertThat(SqlCodec.encodeText(s)).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
        assertThat(SqlCodec.encodeText("lone \ud800")).endsWith((byte) 0xED, (byte) 0xA0, (byte) 0x80);
    }

    /** Both stores' files hold these bytes: a change here is a change of their on-disk format. */
    @Test
    void metadata_isKeyU001fValueU001e_withThoseAndPercentEscaped() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("file", "notes.md");
        metadata.put("odd", "50% \u001f \u001e");
        byte[] bytes = SqlCodec.encodeMetadata(metadata);
        assertThat(new String(bytes, StandardCharsets.UTF_8))
                .isEqualTo("file\u001fnotes.md\u001eodd\u001f50%25 %1F %1E\u001e");
        assertThat(SqlCodec.decodeMetadata(bytes)).containsExactlyEntriesOf(metadata);
        assertThat(SqlCodec.decodeMetadata(SqlCodec.encodeMetadata(Map.of()))).isEmpty();
    }

    @Test
    void vectors_areFloat32LittleEndian_andALengthOfAnotherDimensionIsRefused() {
        byte[] bytes = SqlCodec.encodeVector(new float[] {1f, -2.5f});
        assertThat(bytes).containsExactly(0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x20, 0xC0);
        assertThat(SqlCodec.decodeVector(bytes, 2)).containsExactly(1f, -2.5f);
        assertThatThrownBy(() -> SqlCodec.decodeVector(bytes, 3)).isInstanceOf(IllegalStateException.class)
                .hasMessage("stored vector has 8 bytes, expected 12");
    }

    @Test
    void instants_areEpochSecondsAndNanos() {
        assertThat(SqlCodec.instant(1_700_000_000L, 123_456_789L))
                .isEqualTo(Instant.parse("2023-11-14T22:13:20.123456789Z"));
    }
}
