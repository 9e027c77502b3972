package dev.memfas.core.text;

/**
 * Checks that a text is one JSON value (RFC 8259), without building it: what a state value must be. Nesting deeper
 * than {@value #MAX_DEPTH} is refused rather than followed.
 */
public final class JsonSyntax {
    static final int MAX_DEPTH = 256;

    private final String s;
    private int at;

    private JsonSyntax(String s) {
        this.s = s;
    }

    /**
     * @throws IllegalArgumentException naming what was expected and where, if the text is not one JSON value
     */
    public static void check(String text, String what) {
        JsonSyntax p = new JsonSyntax(text);
        try {
            p.space();
            p.value(0);
            p.space();
            if (p.at != text.length()) {
                throw p.error("the end");
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not JSON: " + e.getMessage());
        }
    }

    private void value(int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("nested deeper than " + MAX_DEPTH + " at char " + at);
        }
        if (at >= s.length()) {
            throw error("a value");
        }
        char c = s.charAt(at);
        switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> word("true");
            case 'f' -> word("false");
            case 'n' -> word("null");
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    number();
                } else {
                    throw error("a value");
                }
            }
        }
    }

    private void object(int depth) {
        at++;
        space();
        if (peek('}')) {
            at++;
            return;
        }
        while (true) {
            space();
            if (!peek('"')) {
                throw error("a string key");
            }
            string();
            space();
            expect(':');
            space();
            value(depth + 1);
            space();
            if (peek(',')) {
                at++;
            } else if (peek('}')) {
                at++;
                return;
            } else {
                throw error("',' or '}'");
            }
        }
    }

    private void array(int depth) {
        at++;
        space();
        if (peek(']')) {
            at++;
            return;
        }
        while (true) {
            space();
            value(depth + 1);
            space();
            if (peek(',')) {
                at++;
            } else if (peek(']')) {
                at++;
                return;
            } else {
                throw error("',' or ']'");
            }
        }
    }

    private void string() {
        at++;
        while (at < s.length()) {
            char c = s.charAt(at++);
            if (c == '"') {
                return;
            }
            if (c < 0x20) {
                at--;
                throw error("no control character in a string");
            }
            if (c == '\\') {
                if (at >= s.length()) {
                    break;
                }
                char e = s.charAt(at++);
                if (e == 'u') {
                    for (int i = 0; i < 4; i++) {
                        if (at >= s.length() || Character.digit(s.charAt(at), 16) < 0) {
                            throw error("four hex digits");
                        }
                        at++;
                    }
                } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                    at--;
                    throw error("an escape");
                }
            }
        }
        throw error("the end of the string");
    }

    private void number() {
        if (peek('-')) {
            at++;
        }
        if (peek('0')) {
            at++;
        } else {
            digits();
        }
        if (peek('.')) {
            at++;
            digits();
        }
        if (peek('e') || peek('E')) {
            at++;
            if (peek('+') || peek('-')) {
                at++;
            }
            digits();
        }
    }

    private void digits() {
        int start = at;
        while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') {
            at++;
        }
        if (at == start) {
            throw error("a digit");
        }
    }

    private void word(String w) {
        if (!s.startsWith(w, at)) {
            throw error("a value");
        }
        at += w.length();
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "'");
        }
        at++;
    }

    private boolean peek(char c) {
        return at < s.length() && s.charAt(at) == c;
    }

    private void space() {
        while (at < s.length() && (s.charAt(at) == ' ' || s.charAt(at) == '\t' || s.charAt(at) == '\n'
                || s.charAt(at) == '\r')) {
            at++;
        }
    }

    private IllegalArgumentException error(String expected) {
        int from = Math.max(0, at - 20);
        String near = s.substring(from, Math.min(s.length(), at + 20));
        return new IllegalArgumentException("expected " + expected + " at char " + at + " near '"
                + printable(near) + "'");
    }

    private static String printable(String value) {
        StringBuilder sb = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            sb.append(Character.isISOControl(c) || Character.isSurrogate(c) ? String.format("\\u%04x", (int) c)
                    : String.valueOf(c));
        }
        return sb.toString();
    }
}
