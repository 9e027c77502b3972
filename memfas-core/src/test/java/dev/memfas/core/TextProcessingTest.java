package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.Trigger;
import dev.memfas.core.envelope.ContextEnvelope;
import dev.memfas.core.envelope.ItemRenderer;
import dev.memfas.core.text.JTokkitTokenizer;
import dev.memfas.core.text.Json;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.internal.PorterStemmer;
import dev.memfas.core.text.TextAnalyzer;
import dev.memfas.core.turn.TriggerMatcher;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tokenizer, the analyzer, trigger matching, boundary cuts and JSON: the text handling under the pipeline. */
final class TextProcessingTest {
    private final JTokkitTokenizer tokenizer = JTokkitTokenizer.cl100k();

    // ---------------------------------------------------------------- envelope

    @Test
    void appendDate_writesWhatIsoLocalDateWrites() {
        java.time.format.DateTimeFormatter iso =
                java.time.format.DateTimeFormatter.ISO_LOCAL_DATE.withZone(java.time.ZoneOffset.UTC);
        java.util.Random random = new java.util.Random(9);
        List<java.time.Instant> instants = new java.util.ArrayList<>(List.of(
                java.time.Instant.parse("1970-01-01T00:00:00Z"), java.time.Instant.parse("1969-12-31T23:59:59Z"),
                java.time.Instant.parse("2024-02-29T23:59:59.999Z"), java.time.Instant.parse("0999-12-31T00:00:00Z"),
                java.time.Instant.parse("9999-12-31T23:59:59Z"), java.time.Instant.parse("+10000-01-01T00:00:00Z"),
                java.time.Instant.parse("-0001-06-01T00:00:00Z")));
        for (int i = 0; i < 1000; i++) {
            instants.add(java.time.Instant.ofEpochSecond(random.nextLong() % 400_000_000_000L));
        }
        for (java.time.Instant instant : instants) {
            StringBuilder sb = new StringBuilder();
            ContextEnvelope.appendDate(sb, instant);
            assertThat(sb.toString()).as("%s", instant).isEqualTo(iso.format(instant));
        }
    }

    // ---------------------------------------------------------------- tokenizer

    @Test
    void count_specialTokenMarkers_areOrdinaryText() {
        assertThat(tokenizer.count("<|endoftext|>")).isGreaterThan(1);
        assertThat(tokenizer.count("")).isZero();
        assertThat(tokenizer.count("hello world")).isEqualTo(2);
        assertThat(tokenizer.id()).isEqualTo("cl100k_base");
    }

    @Test
    void count_loneSurrogates_doNotThrow() {
        assertThat(tokenizer.count("a\ud800b")).isEqualTo(tokenizer.count("a\ufffdb"));
        assertThat(tokenizer.count("\udc00")).isPositive();
    }

    @Test
    void truncate_keepsAPrefixWithinTheLimit_neverSplittingACharacter() {
        String text = "记忆管理系统 🧠🚀 emoji and naïve Straße <|endoftext|> lone \ud800 end";
        for (int max = 0; max <= tokenizer.count(text) + 1; max++) {
            String cut = tokenizer.truncate(text, max);
            assertThat(text).startsWith(cut);
            assertThat(tokenizer.count(cut)).as("max %d", max).isLessThanOrEqualTo(max);
            if (!cut.isEmpty() && cut.length() < text.length()) {
                assertThat(Character.isHighSurrogate(cut.charAt(cut.length() - 1))
                        && Character.isLowSurrogate(text.charAt(cut.length()))).isFalse();
            }
        }
        assertThat(tokenizer.truncate(text, 1000)).isEqualTo(text);
        assertThatThrownBy(() -> tokenizer.truncate(text, -1))
                .hasMessage("max tokens must not be negative: -1");
    }

    // ---------------------------------------------------------------- analyzer

    @Test
    void terms_lowerCaseStemmedWithoutStopWords_andCjkPerCharacter() {
        assertThat(TextAnalyzer.terms("The Deploys of Caroline's   databases!"))
                .containsExactly("deploi", "carolin", "databas");
        assertThat(TextAnalyzer.words("The Deploys of Caroline's databases!"))
                .containsExactly("deploys", "caroline", "databases");
        assertThat(TextAnalyzer.terms("记忆 test")).containsExactly("记", "忆", "test");
        assertThat(TextAnalyzer.terms("NEAR( \" * -- ;")).containsExactly("near");
        assertThat(TextAnalyzer.terms("")).isEmpty();
    }

    @Test
    void porterStemmer_matchesThePublishedVocabulary() {
        String[][] cases = {
            {"caresses", "caress"}, {"ponies", "poni"}, {"ties", "ti"}, {"caress", "caress"}, {"cats", "cat"},
            {"feed", "feed"}, {"agreed", "agre"}, {"plastered", "plaster"}, {"bled", "bled"}, {"motoring", "motor"},
            {"sing", "sing"}, {"conflated", "conflat"}, {"troubled", "troubl"}, {"sized", "size"}, {"hopping", "hop"},
            {"tanned", "tan"}, {"falling", "fall"}, {"hissing", "hiss"}, {"fizzed", "fizz"}, {"failing", "fail"},
            {"filing", "file"}, {"happy", "happi"}, {"sky", "sky"}, {"relational", "relat"},
            {"conditional", "condit"}, {"rational", "ration"}, {"digitizer", "digit"}, {"operator", "oper"},
            {"feudalism", "feudal"}, {"decisiveness", "decis"}, {"hopefulness", "hope"}, {"callousness", "callous"},
            {"formaliti", "formal"}, {"sensitiviti", "sensit"}, {"sensibiliti", "sensibl"}, {"triplicate", "triplic"},
            {"formative", "form"}, {"formalize", "formal"}, {"electrical", "electr"}, {"hopeful", "hope"},
            {"goodness", "good"}, {"revival", "reviv"}, {"allowance", "allow"}, {"inference", "infer"},
            {"airliner", "airlin"}, {"gyroscopic", "gyroscop"}, {"adjustable", "adjust"}, {"defensible", "defens"},
            {"irritant", "irrit"}, {"replacement", "replac"}, {"adjustment", "adjust"}, {"dependent", "depend"},
            {"adoption", "adopt"}, {"communism", "commun"}, {"activate", "activ"}, {"effective", "effect"},
            {"bowdlerize", "bowdler"}, {"probate", "probat"}, {"rate", "rate"}, {"cease", "ceas"},
            {"controll", "control"}, {"roll", "roll"}, {"generalizations", "gener"}, {"oscillators", "oscil"},
            {"deploying", "deploi"}, {"deployed", "deploi"}, {"fixed", "fix"}, {"is", "is"}, {"naïve", "naïve"},
        };
        for (String[] c : cases) {
            assertThat(PorterStemmer.stem(c[0])).as(c[0]).isEqualTo(c[1]);
        }
    }

    // ---------------------------------------------------------------- triggers

    @Test
    void triggerMatcher_wholeWordsPhrasesAndCjk() {
        TriggerMatcher m = new TriggerMatcher(List.of(Trigger.of("work", "w"), Trigger.of("release train", "r"),
                Trigger.of("部署", "d"), Trigger.of("c++", "c")));

        assertThat(keywords(m, "network workflow rework")).isEmpty();
        assertThat(keywords(m, "WORK!")).containsExactly("work");
        assertThat(keywords(m, "the release   train leaves")).containsExactly("release train");
        assertThat(keywords(m, "release trains")).isEmpty();
        assertThat(keywords(m, "今天部署吗")).containsExactly("部署");
        assertThat(keywords(m, "I write C++ daily")).containsExactly("c++");
    }

    private static List<String> keywords(TriggerMatcher m, String text) {
        return m.match(text).stream().map(Trigger::keyword).toList();
    }

    @Test
    void trigger_withoutHintOrMemory_orWithoutALetter_isRefused() {
        assertThatThrownBy(() -> Trigger.of("x", " "))
                .hasMessage("trigger 'x' needs a hint or a linked memory");
        assertThatThrownBy(() -> Trigger.of("--", "hint"))
                .hasMessage("trigger keyword must contain a letter or digit: '--'");
    }

    // ---------------------------------------------------------------- boundary cuts and normalization

    @Test
    void cutAtBoundary_prefersSentenceThenWord() {
        assertThat(ItemRenderer.cutAtBoundary("One sentence here. Another one that is cut mid wo"))
                .isEqualTo("One sentence here. Another one that is cut mid");
        assertThat(ItemRenderer.cutAtBoundary("First sentence is long enough. Second starts and"))
                .isEqualTo("First sentence is long enough.");
        assertThat(ItemRenderer.cutAtBoundary("记忆管理系统记忆管理")).isEqualTo("记忆管理系统记忆管理");
    }

    @Test
    void normalize_collapsesCaseAndPunctuation() {
        assertThat(NormalizedText.normalize("  Kafka   retention: 7 DAYS!! ")).isEqualTo("kafka retention 7 days");
    }

    @Test
    void normalizedHash_isTheHashOfTheNormalizedText_andTellsDifferentTextsApart() {
        List<String> texts = List.of("  Kafka   retention: 7 DAYS!! ", "kafka retention 7 days", "KAFKA—retention (7) days",
                "Straße İstanbul ΣΊΣΥΦΟΣ 🧠 记忆", "kafka retention 8 days", "kafkaretention 7 days", "", "!!!",
                "lone \ud800 surrogate");
        for (String a : texts) {
            assertThat(NormalizedText.hash(a)).as(a)
                    .isEqualTo(NormalizedText.hash(NormalizedText.normalize(a)));
            for (String b : texts) {
                boolean same = NormalizedText.normalize(a).equals(NormalizedText.normalize(b));
                assertThat(NormalizedText.hash(a) == NormalizedText.hash(b)).as(a + " / " + b)
                        .isEqualTo(same);
            }
        }
    }

    // ---------------------------------------------------------------- JSON

    @Test
    void json_roundTripsHostileStrings() {
        String hostile = "quote \" backslash \\ newline \n tab \t nul \u0000 lone \ud800 emoji 🧠 sep \u2028";
        StringBuilder sb = new StringBuilder();
        Json.appendString(sb, hostile);

        assertThat(Json.parse(sb.toString())).isEqualTo(hostile);
        assertThat(Json.parse("{\"a\": [1, 2.5, true, null, \"x\"]}"))
                .isEqualTo(Map.of("a", java.util.Arrays.asList(1.0, 2.5, true, null, "x")));
        assertThatThrownBy(() -> Json.parse("{\"a\": }")).hasMessageStartingWith("not JSON: unexpected character");
    }
}
