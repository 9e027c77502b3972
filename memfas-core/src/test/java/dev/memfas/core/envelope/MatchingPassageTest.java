package dev.memfas.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.internal.PorterStemmer;
import org.junit.jupiter.api.Test;

final class MatchingPassageTest {
    private static int start(String query, String text, int prefixEnd) {
        MatchingPassage passage = new MatchingPassage();
        passage.reset(query);
        MatchingPassage.Span span = passage.find(text, prefixEnd);
        if (span != null) {
            assertThat(span.end()).isEqualTo(MatchingPassage.sentenceEnd(text, span.start()));
        }
        return span == null ? 0 : span.start();
    }

    @Test
    void thePassage_isTheSentenceWithTheMostDistinctQueryTerms() {
        String text = "Hello there. The kafka topic exists. Kafka retention is set per topic. Bye.";

        assertThat(start("kafka retention per topic", text, 5)).isEqualTo(text.indexOf("Kafka retention"));
    }

    @Test
    void aTermTheWholeMemoryRepeats_countsForLessThanOneOnlyTheAnswerHas() {
        String text = "Acme Corp case summary. Acme Corp appealed. Acme Corp lost in court. "
                + "Construction began in 2014.";

        // Two repeated names (in 3 of 4 sentences) weigh less than one word of a single sentence.
        assertThat(start("when did construction start for Acme Corp", text, 5))
                .isEqualTo(text.indexOf("Construction"));
    }

    @Test
    void aWordsStem_beginsAsTheWordDoes_soWordsOfOtherBeginningsNeedNoStemming() {
        for (String w : java.util.List.of("eyed", "flying", "ties", "agreed", "happy", "relational", "ponies", "x",
                "2014", "caresses", "sky", "eye")) {
            assertThat(MatchingPassage.leading(PorterStemmer.stem(w))).as(w).isEqualTo(MatchingPassage.leading(w));
        }
    }

    @Test
    void termsAreMatchedAsTheKeywordSearchReadsThem_stemmedAndWithoutStopWords() {
        String text = "Nothing here. The invoices were archived yesterday.";

        assertThat(start("where is the archive of invoices", text, 5)).isEqualTo(text.indexOf("The invoices"));
    }

    @Test
    void aPassageThatEndsWithinTheCutFromTheStart_orNoMatch_leavesTheCutAtTheStart() {
        String text = "Kafka retention is seven days. Other words follow here. Kafka retention again.";

        // The first sentence matches as well as the last: the earliest wins, and it is within the cut.
        assertThat(start("kafka retention", text, 40)).isZero();
        assertThat(start("postgres vacuum", text, 10)).isZero();
        assertThat(start("the of and", text, 10)).isZero();
    }

    @Test
    void aPassageIsLookedForOnlySoFarIntoALongMemory() {
        String filler = "Nothing to see here at all. ";
        String near = filler.repeat(100) + "Kafka retention is seven days. ";
        String far = filler.repeat(MatchingPassage.MOST_CHARS_READ / filler.length())
                + "Kafka retention is seven days.";

        assertThat(start("kafka retention", near, 10)).isEqualTo(near.indexOf("Kafka"));
        assertThat(start("kafka retention", far, 10)).isZero();
    }

    @Test
    void linesAreSentences_soAListItemIsAPassage() {
        String text = "Here are some venues:\n1. The Blue Room\n2. Revolution Hall, a great venue\n3. The Annex";

        assertThat(start("revolution hall", text, 10)).isEqualTo(text.indexOf("2. Revolution"));
    }

    @Test
    void aSentenceEndsAfterItsStopAndWhiteSpace_notAtADecimalPoint() {
        String text = "Pi is 3.14 roughly. Next one.";

        assertThat(MatchingPassage.sentenceEnd(text, 0)).isEqualTo(text.indexOf(" Next"));
        assertThat(MatchingPassage.sentenceEnd("no stop at all", 0)).isEqualTo(14);
        assertThat(MatchingPassage.sentenceEnd("12. Item one. Item two", 0)).isEqualTo(13);
        assertThat(MatchingPassage.sentenceStartFrom("One. Two.  Three.", 1)).isEqualTo(5);
        assertThat(MatchingPassage.sentenceStartFrom("One. Two.  Three.", 6)).isEqualTo(11);
        assertThat(MatchingPassage.sentenceStartFrom("One. Two.  Three.", 0)).isZero();
        assertThat(MatchingPassage.sentenceStartFrom("One. Two.  Three.", 1)).isEqualTo(5);
        assertThat(MatchingPassage.sentenceStartFrom("One. Two.  Three.", 6)).isEqualTo(11);
        assertThat(MatchingPassage.sentenceStartFrom("One. Two.  Three.", 0)).isZero();
    }
}
