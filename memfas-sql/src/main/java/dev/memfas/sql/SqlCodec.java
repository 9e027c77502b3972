package dev.memfas.sql;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How both SQL stores lay values out in columns; {@code SqlCodecTest} pins the bytes, which are part of each store's
 * on-disk format.
 *
 * <ul>
 *   <li>Free text (memory text, hints, metadata, state values) is stored as bytes (SQLite's BLOB, PostgreSQL's
 *       {@code bytea}) in WTF-8: UTF-8, except that a lone surrogate is written as the 3-byte sequence of its code
 *       unit. Any Java string, NUL and lone surrogates included, reads back exactly, which a text column bound through
 *       JDBC's UTF-8 conversion would not give (and PostgreSQL's {@code text} holds no NUL).</li>
 *   <li>Vectors are float32 little-endian bytes.</li>
 *   <li>Instants are two integers: epoch seconds and nanoseconds, exact and ordered.</li>
 * </ul>
 */
public final class SqlCodec {
    private static final char KEY_END = '\u001f';
    private static final char PAIR_END = '\u001e';

    private SqlCodec() {}

    /** The string in WTF-8. */
    public static byte[] encodeText(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            int cp = s.charAt(i);
            if (Character.isHighSurrogate((char) cp) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                cp = Character.toCodePoint((char) cp, s.charAt(++i));
            }
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
        }
        return out.toByteArray();
    }

    /** The string {@link #encodeText} wrote. */
    public static String decodeText(byte[] b) {
        if (holdsNoSurrogate(b)) {
            // Valid UTF-8 (what encodeText writes for a string without lone surrogates): the JDK's decoder gives the
            // same string with one copy, and a Latin-1 string without widening. Memories are read in every turn.
            return new String(b, StandardCharsets.UTF_8);
        }
        StringBuilder sb = new StringBuilder(b.length);
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xFF;
            int cp;
            if (c < 0x80) {
                cp = c;
                i += 1;
            } else if (c < 0xE0) {
                cp = ((c & 0x1F) << 6) | (b[i + 1] & 0x3F);
                i += 2;
            } else if (c < 0xF0) {
                cp = ((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F);
                i += 3;
            } else {
                cp = ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
                i += 4;
            }
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }

    /**
     * Whether the bytes hold no lone surrogate's 3-byte sequence ({@code ED A0}-{@code ED BF}), the one thing that
     * sets what encodeText writes apart from valid UTF-8.
     */
    private static boolean holdsNoSurrogate(byte[] b) {
        for (int i = 0; i < b.length - 1; i++) {
            if (b[i] == (byte) 0xED && (b[i + 1] & 0xFF) >= 0xA0) {
                return false;
            }
        }
        return true;
    }

    /** Metadata as {@code key U+001F value U+001E ...}; values escape {@code %}, U+001E and U+001F as {@code %XX}. */
    public static byte[] encodeMetadata(Map<String, String> metadata) {
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

    /** The metadata {@link #encodeMetadata} wrote, in its order. */
    public static Map<String, String> decodeMetadata(byte[] bytes) {
        String s = decodeText(bytes);
        Map<String, String> out = new LinkedHashMap<>();
        int start = 0;
        while (start < s.length()) {
            int sep = s.indexOf(KEY_END, start);
            int end = s.indexOf(PAIR_END, sep);
            String key = s.substring(start, sep);
            String raw = s.substring(sep + 1, end);
            StringBuilder v = new StringBuilder(raw.length());
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c == '%') {
                    v.append((char) Integer.parseInt(raw.substring(i + 1, i + 3), 16));
                    i += 2;
                } else {
                    v.append(c);
                }
            }
            out.put(key, v.toString());
            start = end + 1;
        }
        return out;
    }

    /** The vector as float32 little-endian. */
    public static byte[] encodeVector(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }

    /**
     * The vector {@link #encodeVector} wrote.
     *
     * @throws IllegalStateException if it does not hold {@code dimension} floats
     */
    public static float[] decodeVector(byte[] bytes, int dimension) {
        if (bytes.length != dimension * Float.BYTES) {
            throw new IllegalStateException(
                    "stored vector has " + bytes.length + " bytes, expected " + dimension * Float.BYTES);
        }
        float[] v = new float[dimension];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }

    /** The instant kept as epoch seconds and nanoseconds. */
    public static Instant instant(long seconds, long nanos) {
        return Instant.ofEpochSecond(seconds, nanos);
    }

    /** Binds an instant as epoch seconds and nanoseconds at {@code at} and {@code at + 1}; both null for none. */
    public static void setInstant(PreparedStatement ps, int at, Instant instant) throws SQLException {
        if (instant == null) {
            ps.setNull(at, Types.INTEGER);
            ps.setNull(at + 1, Types.INTEGER);
        } else {
            ps.setLong(at, instant.getEpochSecond());
            ps.setInt(at + 1, instant.getNano());
        }
    }
}
