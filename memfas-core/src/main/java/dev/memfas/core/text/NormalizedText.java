package dev.memfas.core.text;

/**
 * The form in which two memories' texts are compared for duplicates: letters and digits, each lower-cased on its own,
 * every other run collapsed to one space; and a 64-bit hash of that form computed without building it.
 */
public final class NormalizedText {
    private NormalizedText() {}

    /**
     * A 64-bit FNV-1a hash of {@link #normalize(String)}'s result, computed without building it. ASCII characters are
     * folded by table (a fill hashes every candidate it considers, thousands of characters a turn); others as
     * {@code normalize} does.
     */
    public static long hash(String text) {
        long h = 0xcbf29ce484222325L;
        boolean gap = false;
        boolean any = false;
        int length = text.length();
        for (int i = 0; i < length; ) {
            char ch = text.charAt(i);
            int folded;
            if (ch < ASCII_FOLD.length) {
                i++;
                folded = ASCII_FOLD[ch];
            } else {
                int cp = text.codePointAt(i);
                i += Character.charCount(cp);
                folded = Character.isLetterOrDigit(cp) ? Character.toLowerCase(cp) : 0;
            }
            if (folded == 0) {
                gap = true;
                continue;
            }
            if (gap && any) {
                h = (h ^ ' ') * 0x100000001b3L;
            }
            gap = false;
            any = true;
            h = (h ^ folded) * 0x100000001b3L;
        }
        return h;
    }

    /** For each ASCII character: its lower case if it is a letter or digit, else 0. */
    private static final char[] ASCII_FOLD = new char[128];

    static {
        for (char c = 0; c < ASCII_FOLD.length; c++) {
            ASCII_FOLD[c] = Character.isLetterOrDigit(c) ? Character.toLowerCase(c) : 0;
        }
    }

    /** Letters and digits, each lower-cased on its own, with every other run collapsed to one space. */
    public static String normalize(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        boolean gap = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isLetterOrDigit(cp)) {
                if (gap && sb.length() > 0) {
                    sb.append(' ');
                }
                gap = false;
                sb.appendCodePoint(Character.toLowerCase(cp));
            } else {
                gap = true;
            }
        }
        return sb.toString();
    }
}
