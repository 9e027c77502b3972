package dev.memfas.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class CodecTest {
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
            assertThat(Codec.decodeText(Codec.encodeText(s))).isEqualTo(s);
        }
        assertThat(withLoneSurrogates).isBetween(1_000, 19_000);
    }

    @Test
    void text_withoutLoneSurrogates_isWrittenAsUtf8() {
        String s = "plain, é, 记忆, 🧠, nul \u0000";
        assertThat(Codec.encodeText(s)).isEqualTo(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(Codec.encodeText("lone \ud800")).endsWith((byte) 0xED, (byte) 0xA0, (byte) 0x80);
    }
}
