package dev.memfas.postgres;

/**
 * What the PostgreSQL store writes beside its columns' values, which {@link dev.memfas.sql.SqlCodec} lays out: the
 * text its full-text search reads.
 */
final class Codec {
    private Codec() {}

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
}
