package dev.memfas.core.store;

import java.util.regex.Pattern;

/**
 * A state key glob as SQLite's {@code GLOB} reads it, as a regular expression: {@code *} any run of characters,
 * {@code ?} one character, {@code [abc]} and {@code [a-z]} one of a class, {@code [^abc]} one not in it; everything else
 * itself, case-sensitively.
 */
final class StateGlob {
    private StateGlob() {}

    static Pattern toRegex(String glob) {
        StringBuilder re = new StringBuilder(glob.length() + 8);
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else if (c == '[' && glob.indexOf(']', i + 2) > 0) {
                int end = glob.indexOf(']', i + 2);
                String body = glob.substring(i + 1, end);
                boolean negated = body.startsWith("^");
                re.append(negated ? "[^" : "[");
                for (char k : (negated ? body.substring(1) : body).toCharArray()) {
                    if ("\\[]^&".indexOf(k) >= 0) {
                        re.append('\\');
                    }
                    re.append(k);
                }
                re.append(']');
                i = end;
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
