package dev.memfas.sqlite;

import java.util.ArrayList;
import java.util.List;

/**
 * How the SQLite store lays lists of identifiers (tags, linked memory ids) out in a column: joined with U+001F, a
 * control character identifiers may not contain. Every other value is laid out by {@link dev.memfas.sql.SqlCodec}.
 */
final class Codec {
    static final char SEPARATOR = '\u001f';

    private Codec() {}

    static String joinIds(List<String> ids) {
        return String.join(String.valueOf(SEPARATOR), ids);
    }

    static List<String> splitIds(String joined) {
        if (joined.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= joined.length(); i++) {
            if (i == joined.length() || joined.charAt(i) == SEPARATOR) {
                out.add(joined.substring(start, i));
                start = i + 1;
            }
        }
        return out;
    }
}
