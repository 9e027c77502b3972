package dev.memfas.sql;

import dev.memfas.internal.PorterStemmer;
import dev.memfas.internal.StopWords;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The terms SQLite's FTS5 {@code porter unicode61} tokenizer makes of a text, so that a memory ranks alike in both
 * stores and as it did when SQLite's full-text index ranked it: runs of letters, digits and private-use characters,
 * lower-cased, diacritics removed from Latin letters that carry one, then Porter-stemmed.
 *
 * <p>Java's Unicode tables stand in for SQLite's, which are older: a character a later Unicode version assigned
 * (many emoji among them) separates words here where FTS5 reads it as part of one. Over the 105,000 texts of the
 * evaluation data the two agree on every term but such emoji.
 */
final class Fts5Terms {
    /** How many distinct words of a query are searched, as the SQLite store's full-text query did. */
    static final int MAX_QUERY_WORDS = 64;
    /**
     * The combining marks that continue a word and are dropped from it: those a Latin letter of the Basic
     * Multilingual Plane decomposes into (the letter and the mark), as FTS5's diacritics are.
     */
    private static final BitSet DIACRITICS = latinDiacritics();
    private static final int DOTLESS_I = 0x131;

    private Fts5Terms() {}

    /** Gives each term of the text, in order, repeats included. */
    static void forEach(String text, Consumer<String> action) {
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (isWordChar(cp) || (inWord && isDiacritic(cp))) {
                inWord = true;
                int folded = fold(cp);
                if (folded != 0) {
                    word.appendCodePoint(folded);
                }
            } else if (inWord) {
                action.accept(PorterStemmer.stemToken(word.toString()));
                word.setLength(0);
                inWord = false;
            }
        }
        if (inWord) {
            action.accept(PorterStemmer.stemToken(word.toString()));
        }
    }

    /** The terms of the text, in order, repeats included. */
    static List<String> of(String text) {
        List<String> terms = new ArrayList<>();
        forEach(text, terms::add);
        return terms;
    }

    /**
     * The terms a query searches, one per distinct word: runs of letters and digits, lower-cased, stop words dropped,
     * at most {@value #MAX_QUERY_WORDS}. Two words of one stem are two terms (as two phrases of an FTS5 query are),
     * so a query saying "deploy" and "deploys" weighs that stem twice.
     */
    static List<String> query(String text) {
        Set<String> words = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= text.length() && words.size() < MAX_QUERY_WORDS; ) {
            int cp = i < text.length() ? text.codePointAt(i) : ' ';
            i += i < text.length() ? Character.charCount(cp) : 1;
            if (Character.isLetterOrDigit(cp)) {
                word.appendCodePoint(cp);
            } else if (word.length() > 0) {
                String w = word.toString().toLowerCase(Locale.ROOT);
                if (!StopWords.isStopWord(w)) {
                    words.add(w);
                }
                word.setLength(0);
            }
        }
        List<String> terms = new ArrayList<>(words.size());
        for (String w : words) {
            forEach(w, terms::add);
        }
        return terms;
    }

    private static boolean isWordChar(int cp) {
        if (cp < 0x80) {
            return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
        }
        return switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER, Character.OTHER_NUMBER, Character.PRIVATE_USE -> true;
            default -> false;
        };
    }

    private static boolean isDiacritic(int cp) {
        return cp < DIACRITICS.size() && DIACRITICS.get(cp);
    }

    private static BitSet latinDiacritics() {
        BitSet marks = new BitSet(0x370);
        for (int cp = 0x80; cp <= 0xFFFF; cp++) {
            if (Character.isLowerCase(cp) && Character.UnicodeScript.of(cp) == Character.UnicodeScript.LATIN) {
                String parts = Normalizer.normalize(Character.toString(cp), Normalizer.Form.NFD);
                if (parts.length() == 2 && parts.charAt(0) < 0x80 && parts.charAt(1) < 0x370) {
                    marks.set(parts.charAt(1));
                }
            }
        }
        return marks;
    }

    /**
     * The character as it is indexed: case-folded (lower case, and µ as μ, ς as σ), a Latin letter with one diacritic as the bare letter, a diacritic
     * as nothing (0). Beyond the Basic Multilingual Plane only Deseret has case, as in FTS5.
     */
    private static int fold(int cp) {
        if (cp < 0x80) {
            return cp >= 'A' && cp <= 'Z' ? cp + ('a' - 'A') : cp;
        }
        if (isDiacritic(cp)) {
            return 0;
        }
        if (cp > 0xFFFF) {
            return Character.UnicodeBlock.of(cp) == Character.UnicodeBlock.DESERET ? Character.toLowerCase(cp) : cp;
        }
        if (cp == DOTLESS_I) {
            return cp; // the one lower-case letter whose upper case folds to another letter
        }
        int lower = Character.toLowerCase(Character.toUpperCase(cp));
        if (lower < 0x80 || Character.UnicodeScript.of(lower) != Character.UnicodeScript.LATIN) {
            return lower;
        }
        String parts = Normalizer.normalize(Character.toString(lower), Normalizer.Form.NFD);
        return parts.length() == 2 && parts.charAt(0) < 0x80 && isDiacritic(parts.charAt(1)) ? parts.charAt(0) : lower;
    }
}
