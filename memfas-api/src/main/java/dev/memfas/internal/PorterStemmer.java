package dev.memfas.internal;

import java.nio.charset.StandardCharsets;

/**
 * The Porter stemming algorithm (M.F. Porter, 1980, "An algorithm for suffix stripping"), the same one SQLite's FTS5
 * {@code porter} tokenizer applies, so lexical matching agrees across stores: "deploying", "deployed" and "deploys"
 * all become "deploy".
 *
 * <p>Stateless and thread-safe (each call uses its own buffer).
 */
public final class PorterStemmer {
    /** FTS5 leaves tokens longer than this many bytes unstemmed. */
    private static final int FTS5_LONGEST = 64;

    private char[] b;
    private int k;
    private int j;

    private PorterStemmer(String word) {
        b = word.toCharArray();
        k = b.length - 1;
    }

    /** The stem of a lower-case word of the letters a to z; any other word unchanged. */
    public static String stem(String word) {
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c < 'a' || c > 'z') {
                return word;
            }
        }
        return stemAscii(word);
    }

    /**
     * The stem of a token as FTS5's {@code porter} tokenizer takes it: any token of 3 to 64 bytes in UTF-8, read byte
     * by byte, so that digits and the bytes of other characters are consonants ("1990s" becomes "1990", "großartige"
     * "großartig"); a longer or shorter token unchanged.
     */
    public static String stemToken(String token) {
        boolean ascii = true;
        for (int i = 0; i < token.length() && ascii; i++) {
            ascii = token.charAt(i) < 0x80;
        }
        if (ascii) {
            return token.length() > FTS5_LONGEST ? token : stemAscii(token);
        }
        byte[] utf8 = token.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > FTS5_LONGEST) {
            return token;
        }
        // Each byte as one char of ISO 8859-1: the suffixes are ASCII, so a cut never falls inside a character.
        String stem = stemAscii(new String(utf8, StandardCharsets.ISO_8859_1));
        return new String(stem.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private static String stemAscii(String word) {
        if (word.length() <= 2) {
            return word;
        }
        PorterStemmer s = new PorterStemmer(word);
        s.step1ab();
        s.step1c();
        s.step2();
        s.step3();
        s.step4();
        s.step5();
        return new String(s.b, 0, s.k + 1);
    }

    private boolean cons(int i) {
        switch (b[i]) {
            case 'a', 'e', 'i', 'o', 'u':
                return false;
            case 'y':
                return i == 0 || !cons(i - 1);
            default:
                return true;
        }
    }

    /** The number of consonant-vowel sequences in b[0..j]. */
    private int m() {
        int n = 0;
        int i = 0;
        while (true) {
            if (i > j) {
                return n;
            }
            if (!cons(i)) {
                break;
            }
            i++;
        }
        i++;
        while (true) {
            while (true) {
                if (i > j) {
                    return n;
                }
                if (cons(i)) {
                    break;
                }
                i++;
            }
            i++;
            n++;
            while (true) {
                if (i > j) {
                    return n;
                }
                if (!cons(i)) {
                    break;
                }
                i++;
            }
            i++;
        }
    }

    private boolean vowelInStem() {
        for (int i = 0; i <= j; i++) {
            if (!cons(i)) {
                return true;
            }
        }
        return false;
    }

    private boolean doubleConsonant(int i) {
        return i >= 1 && b[i] == b[i - 1] && cons(i);
    }

    private boolean cvc(int i) {
        if (i < 2 || !cons(i) || cons(i - 1) || !cons(i - 2)) {
            return false;
        }
        char ch = b[i];
        return ch != 'w' && ch != 'x' && ch != 'y';
    }

    /** Whether the word ends with the suffix after at least one letter (as in FTS5: "ies" stays, "eed" loses "ed"). */
    private boolean ends(String s) {
        int l = s.length();
        int o = k - l + 1;
        if (o < 1) {
            return false;
        }
        for (int i = 0; i < l; i++) {
            if (b[o + i] != s.charAt(i)) {
                return false;
            }
        }
        j = k - l;
        return true;
    }

    private void setTo(String s) {
        int l = s.length();
        int o = j + 1;
        if (o + l > b.length) {
            b = java.util.Arrays.copyOf(b, o + l);
        }
        for (int i = 0; i < l; i++) {
            b[o + i] = s.charAt(i);
        }
        k = j + l;
    }

    private void replaceIfMeasured(String s) {
        if (m() > 0) {
            setTo(s);
        }
    }

    private void step1ab() {
        if (b[k] == 's') {
            if (ends("sses")) {
                k -= 2;
            } else if (ends("ies")) {
                setTo("i");
            } else if (k >= 1 && b[k - 1] != 's') {
                k--;
            }
        }
        if (ends("eed")) {
            if (m() > 0) {
                k--;
            }
        } else if ((ends("ed") || ends("ing")) && vowelInStem()) {
            k = j;
            if (ends("at")) {
                setTo("ate");
            } else if (ends("bl")) {
                setTo("ble");
            } else if (ends("iz")) {
                setTo("ize");
            } else if (doubleConsonant(k)) {
                k--;
                char ch = b[k];
                if (ch == 'l' || ch == 's' || ch == 'z') {
                    k++;
                }
            } else {
                j = k;
                if (m() == 1 && cvc(k)) {
                    setTo("e");
                }
            }
        }
    }

    private void step1c() {
        if (ends("y") && vowelInStem()) {
            b[k] = 'i';
        }
    }

    private void step2() {
        if (k < 1) {
            return;
        }
        switch (b[k - 1]) {
            case 'a' -> {
                if (ends("ational")) {
                    replaceIfMeasured("ate");
                } else if (ends("tional")) {
                    replaceIfMeasured("tion");
                }
            }
            case 'c' -> {
                if (ends("enci")) {
                    replaceIfMeasured("ence");
                } else if (ends("anci")) {
                    replaceIfMeasured("ance");
                }
            }
            case 'e' -> {
                if (ends("izer")) {
                    replaceIfMeasured("ize");
                }
            }
            case 'l' -> {
                if (ends("bli")) {
                    replaceIfMeasured("ble");
                } else if (ends("alli")) {
                    replaceIfMeasured("al");
                } else if (ends("entli")) {
                    replaceIfMeasured("ent");
                } else if (ends("eli")) {
                    replaceIfMeasured("e");
                } else if (ends("ousli")) {
                    replaceIfMeasured("ous");
                }
            }
            case 'o' -> {
                if (ends("ization")) {
                    replaceIfMeasured("ize");
                } else if (ends("ation")) {
                    replaceIfMeasured("ate");
                } else if (ends("ator")) {
                    replaceIfMeasured("ate");
                }
            }
            case 's' -> {
                if (ends("alism")) {
                    replaceIfMeasured("al");
                } else if (ends("iveness")) {
                    replaceIfMeasured("ive");
                } else if (ends("fulness")) {
                    replaceIfMeasured("ful");
                } else if (ends("ousness")) {
                    replaceIfMeasured("ous");
                }
            }
            case 't' -> {
                if (ends("aliti")) {
                    replaceIfMeasured("al");
                } else if (ends("iviti")) {
                    replaceIfMeasured("ive");
                } else if (ends("biliti")) {
                    replaceIfMeasured("ble");
                }
            }
            case 'g' -> {
                if (ends("logi")) {
                    replaceIfMeasured("log");
                }
            }
            default -> { }
        }
    }

    private void step3() {
        switch (b[k]) {
            case 'e' -> {
                if (ends("icate")) {
                    replaceIfMeasured("ic");
                } else if (ends("ative")) {
                    replaceIfMeasured("");
                } else if (ends("alize")) {
                    replaceIfMeasured("al");
                }
            }
            case 'i' -> {
                if (ends("iciti")) {
                    replaceIfMeasured("ic");
                }
            }
            case 'l' -> {
                if (ends("ical")) {
                    replaceIfMeasured("ic");
                } else if (ends("ful")) {
                    replaceIfMeasured("");
                }
            }
            case 's' -> {
                if (ends("ness")) {
                    replaceIfMeasured("");
                }
            }
            default -> { }
        }
    }

    private void step4() {
        if (k < 1) {
            return;
        }
        boolean matched = switch (b[k - 1]) {
            case 'a' -> ends("al");
            case 'c' -> ends("ance") || ends("ence");
            case 'e' -> ends("er");
            case 'i' -> ends("ic");
            case 'l' -> ends("able") || ends("ible");
            case 'n' -> ends("ant") || ends("ement") || ends("ment") || ends("ent");
            case 'o' -> (ends("ion") && j >= 0 && (b[j] == 's' || b[j] == 't')) || ends("ou");
            case 's' -> ends("ism");
            case 't' -> ends("ate") || ends("iti");
            case 'u' -> ends("ous");
            case 'v' -> ends("ive");
            case 'z' -> ends("ize");
            default -> false;
        };
        if (matched && m() > 1) {
            k = j;
        }
    }

    private void step5() {
        j = k;
        if (b[k] == 'e') {
            int a = m();
            if (a > 1 || (a == 1 && !cvc(k - 1))) {
                k--;
            }
        }
        if (b[k] == 'l' && doubleConsonant(k) && m() > 1) {
            k--;
        }
    }
}
