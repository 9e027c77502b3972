package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.memfas.core.text.TextAnalyzer;
import dev.memfas.core.turn.TopicTerms;
import dev.memfas.internal.StopWords;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The word scanner ({@link TextAnalyzer#scan}) and what reads words through it. */
class WordScanningTest {
    /**
     * Pieces random texts are made of: ASCII words in any case, stop words, digits, apostrophes of both kinds, CJK,
     * Greek (whose capital sigma lower-cases by its place in the word), a dotted capital I (two chars lower-cased), the
     * Kelvin sign (lower-cases to ASCII k), a letter outside the BMP, emoji, punctuation and runs past 64 characters.
     */
    private static final String[] PIECES = {"Deploy", "deploy", "DEPLOY", "the", "The", "of", "Caroline", "Caroline's",
        "won\u2019t", "don't", "42", "v2", "记忆", "カタカナ", "ΟΔΟΣ", "οδος", "\u0130stanbul", "istanbul", "\u212Aelvin",
        "kelvin", "\uD835\uDC00bc", "abc", "\uD83D\uDE00", "!", ",", ".", "-", "  ", "\n", "x".repeat(70),
        "Y".repeat(63) + "\uD835\uDC00z", "caf\u00E9", "CAF\u00C9", "\u00DF", "SS"};

    @Test
    void words_splitAsTheyDidBeforeTheScanner() {
        Random random = new Random(7);
        for (int k = 0; k < 5_000; k++) {
            String text = randomText(random);
            assertThat(TextAnalyzer.words(text)).as(text).isEqualTo(referenceWords(text));
        }
    }

    @Test
    void noCodePointBeforeTheFirstIdeographic_isHanOrKana() {
        for (int cp = 0; cp < TextAnalyzer.FIRST_IDEOGRAPHIC; cp++) {
            Character.UnicodeScript script = Character.UnicodeScript.of(cp);
            assertThat(script).as("U+%04X", cp).isNotIn(Character.UnicodeScript.HAN, Character.UnicodeScript.HIRAGANA,
                    Character.UnicodeScript.KATAKANA);
        }
        assertThat(Character.UnicodeScript.of(TextAnalyzer.FIRST_IDEOGRAPHIC)).isEqualTo(Character.UnicodeScript.HAN);
    }

    @Test
    void overlap_isTheSumOfTheDistinctTermsTheTextHolds() {
        Random random = new Random(11);
        for (int k = 0; k < 5_000; k++) {
            Map<String, Double> weights = new LinkedHashMap<>();
            for (String w : referenceWords(randomText(random))) {
                weights.put(w, 0.05 + random.nextInt(20) / 10.0);
            }
            String text = randomText(random);
            double expected = 0;
            for (String w : new HashSet<>(referenceWords(text))) {
                expected += weights.getOrDefault(w, 0.0);
            }
            assertThat(new TopicTerms(weights).overlap(text)).as(weights + " in " + text)
                    .isCloseTo(expected, within(1e-9));
        }
    }

    @Test
    void overlap_countsATermOnce_matchesAnyCase_andIgnoresWhatIsNoTerm() {
        TopicTerms terms = new TopicTerms(Map.of("deploy", 1.0, "caroline", 0.5, "记", 0.25, "ödön", 2.0));
        assertThat(terms.overlap("Deploy, DEPLOY and deploy again")).isEqualTo(1.0);
        assertThat(terms.overlap("Caroline's deploys")).isEqualTo(0.5);
        assertThat(terms.overlap("记忆 and ÖDÖN")).isEqualTo(2.25);
        assertThat(terms.overlap("nothing here")).isZero();
        assertThat(new TopicTerms(Map.of()).overlap("Deploy")).isZero();
    }

    private static String randomText(Random random) {
        StringBuilder sb = new StringBuilder();
        int pieces = random.nextInt(12);
        for (int i = 0; i < pieces; i++) {
            sb.append(PIECES[random.nextInt(PIECES.length)]);
            if (random.nextInt(3) > 0) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }

    /** The word splitting as it was written before {@link TextAnalyzer#scan}: a string per word. */
    private static List<String> referenceWords(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int i = 0;
        int n = text.length();
        while (i < n) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            Character.UnicodeScript script = Character.UnicodeScript.of(cp);
            if (script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                    || script == Character.UnicodeScript.KATAKANA) {
                flush(word, out);
                out.add(new String(Character.toChars(cp)));
            } else if (Character.isLetterOrDigit(cp)) {
                if (word.length() < 64) {
                    word.appendCodePoint(cp);
                }
            } else if ((cp == '\'' || cp == '\u2019') && word.length() > 0) {
                flush(word, out);
                while (i < n && Character.isLetter(text.codePointAt(i))) {
                    i += Character.charCount(text.codePointAt(i));
                }
            } else {
                flush(word, out);
            }
        }
        flush(word, out);
        return out;
    }

    private static void flush(StringBuilder word, List<String> out) {
        if (word.length() == 0) {
            return;
        }
        String w = word.toString().toLowerCase(Locale.ROOT);
        word.setLength(0);
        if (!StopWords.isStopWord(w)) {
            out.add(w);
        }
    }
}
