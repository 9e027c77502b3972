package dev.memfas.mcp;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * Text as it leaves a server: a lone surrogate (half of a UTF-16 pair, which a Java string may hold and stored text may
 * carry) becomes U+FFFD, the replacement character. Encoded as is it would be invalid UTF-8 ({@code ED A0 80}), and a
 * strict client rejects the whole reply for one bad character.
 */
final class WellFormedText {
    private static final char REPLACEMENT = '\uFFFD';

    private WellFormedText() {}

    /** The text with every lone surrogate replaced; the same instance when it has none. */
    static String of(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (Character.isSurrogate(c)) {
                return replaceFrom(text, i);
            }
        }
        return text;
    }

    /** The text as UTF-8, lone surrogates replaced. */
    static byte[] utf8(String text) {
        return of(text).getBytes(StandardCharsets.UTF_8);
    }

    private static String replaceFrom(String text, int start) {
        StringBuilder out = new StringBuilder(text.length()).append(text, 0, start);
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else {
                out.append(Character.isSurrogate(c) ? REPLACEMENT : c);
            }
        }
        return out.toString();
    }

    /**
     * A writer that passes on well-formed text. A high surrogate at the end of one write is held until the next shows
     * whether its pair follows, so text written in pieces is judged as a whole.
     */
    static Writer writer(Writer out) {
        return new FilterWriter(out) {
            private char held; // a high surrogate waiting for its pair, or 0

            @Override
            public void write(int c) throws IOException {
                char ch = (char) c;
                if (held != 0) {
                    char high = held;
                    held = 0;
                    if (Character.isLowSurrogate(ch)) {
                        out.write(high);
                        out.write(ch);
                        return;
                    }
                    out.write(REPLACEMENT);
                }
                if (Character.isHighSurrogate(ch)) {
                    held = ch;
                } else {
                    out.write(Character.isLowSurrogate(ch) ? REPLACEMENT : ch);
                }
            }

            @Override
            public void write(char[] chars, int offset, int length) throws IOException {
                write(new String(chars, offset, length), 0, length);
            }

            @Override
            public void write(String text, int offset, int length) throws IOException {
                int start = offset;
                int end = offset + length;
                if (held != 0 && start < end) {
                    write(text.charAt(start++));
                }
                if (start >= end) {
                    return;
                }
                // A high surrogate last may be paired by the next write: hold it.
                boolean endsHigh = Character.isHighSurrogate(text.charAt(end - 1));
                String body = text.substring(start, endsHigh ? end - 1 : end);
                out.write(of(body));
                if (endsHigh) {
                    write(text.charAt(end - 1));
                }
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                if (held != 0) {
                    held = 0;
                    out.write(REPLACEMENT);
                }
                out.close();
            }
        };
    }
}
