package dev.memfas.postgres;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How values are laid out in columns.
 *
 * <ul>
 *   <li>Free text (memory text, trigger hints, metadata, state keys and values) is stored as {@code bytea} in WTF-8:
 *       UTF-8, except that a lone surrogate is written as the 3-byte sequence of its code unit. PostgreSQL's
 *       {@code text} holds no NUL, and the driver would replace a lone surrogate: in {@code bytea} any Java string
 *       reads back exactly.</li>
 *   <li>Identifiers (ids, namespaces, sources, kinds, tags, authors), which may hold neither control characters nor
 *       lone surrogates, are {@code text} and {@code text[]}.</li>
 *   <li>Vectors are float32 little-endian {@code bytea}.</li>
 *   <li>Instants are two integers, epoch seconds and nanoseconds: exact, where {@code timestamptz} keeps
 *       microseconds.</li>
 * </ul>
 *
 * <p>The SQLite store lays text out the same way with a codec of its own: each store's format is fixed by its own
 * schema version, so a change to one store's encoding must never reach the other's data.
 */
final class Codec {
    private static final char KEY_END = '\u001f';
    private static final char PAIR_END = '\u001e';

    private Codec() {}

    /** The string in WTF-8. */
    static byte[] encodeText(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 16);
        // codePoints() pairs surrogates and yields a lone one as its own code unit, which is then written like any
        // other code point below U+10000.
        s.codePoints().forEach(cp -> {
            if (cp < 0x80) {
                out.write(cp);
            } else if (cp < 0x800) {
                out.write(0xC0 | (cp >> 6));
                out.write(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                out.write(0xE0 | (cp >> 12));
                out.write(0x80 | ((cp >> 6) & 0x3F));
                out.write(0x80 | (cp & 0x3F));
            } else {
                out.write(0xF0 | (cp >> 18));
                out.write(0x80 | ((cp >> 12) & 0x3F));
                out.write(0x80 | ((cp >> 6) & 0x3F));
                out.write(0x80 | (cp & 0x3F));
            }
        });
        return out.toByteArray();
    }

    /** The string {@link #encodeText} wrote. */
    static String decodeText(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length);
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xFF;
            int length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
            int cp = length == 1 ? c : c & (0x7F >> length);
            for (int k = 1; k < length; k++) {
                cp = (cp << 6) | (b[i + k] & 0x3F);
            }
            sb.appendCodePoint(cp);
            i += length;
        }
        return sb.toString();
    }

    /**
     * The text as PostgreSQL's text search may read it: NUL (which {@code text} cannot hold) as a space, a lone
     * surrogate as U+FFFD. Only the lexemes are kept of it, never the text.
     */
    static String searchable(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            char replacement = c;
            if (c == '\u0000') {
                replacement = ' ';
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                if (sb != null) {
                    sb.append(c).append(s.charAt(i + 1));
                }
                i++;
                continue;
            } else if (Character.isSurrogate(c)) {
                replacement = '\ufffd';
            }
            if (replacement != c && sb == null) {
                sb = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (sb != null) {
                sb.append(replacement);
            }
        }
        return sb == null ? s : sb.toString();
    }

    /**
     * Metadata as {@code key U+001F value U+001E ...}: keys are identifiers, which hold no control characters; values
     * escape {@code %}, U+001E and U+001F as {@code %XX}.
     */
    static byte[] encodeMetadata(Map<String, String> metadata) {
        StringBuilder sb = new StringBuilder();
        metadata.forEach((k, v) -> {
            sb.append(k).append(KEY_END);
            for (int i = 0; i < v.length(); i++) {
                char c = v.charAt(i);
                switch (c) {
                    case '%' -> sb.append("%25");
                    case KEY_END -> sb.append("%1F");
                    case PAIR_END -> sb.append("%1E");
                    default -> sb.append(c);
                }
            }
            sb.append(PAIR_END);
        });
        return encodeText(sb.toString());
    }

    static Map<String, String> decodeMetadata(byte[] bytes) {
        String s = decodeText(bytes);
        Map<String, String> out = new LinkedHashMap<>();
        int start = 0;
        while (start < s.length()) {
            int keyEnd = s.indexOf(KEY_END, start);
            int end = s.indexOf(PAIR_END, keyEnd);
            StringBuilder value = new StringBuilder(end - keyEnd);
            for (int i = keyEnd + 1; i < end; i++) {
                char c = s.charAt(i);
                if (c == '%') {
                    value.append((char) Integer.parseInt(s, i + 1, i + 3, 16));
                    i += 2;
                } else {
                    value.append(c);
                }
            }
            out.put(s.substring(start, keyEnd), value.toString());
            start = end + 1;
        }
        return out;
    }

    static byte[] encodeVector(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }

    static float[] decodeVector(byte[] bytes, int dimension) {
        if (bytes.length != dimension * Float.BYTES) {
            throw new IllegalStateException(
                    "stored vector has " + bytes.length + " bytes, expected " + dimension * Float.BYTES);
        }
        float[] v = new float[dimension];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }

    static Instant instant(long seconds, long nanos) {
        return Instant.ofEpochSecond(seconds, nanos);
    }
}
