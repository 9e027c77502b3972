package dev.memfas.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class ShownAnswerTest {
    private static EvalData.Question question(String answer, String... evidence) {
        return new EvalData.Question("q", "?", Set.of(evidence), Set.of(), "single-session-assistant", answer);
    }

    @Test
    void theAnswersWordsThatTheEvidenceWritesOut_areLookedFor() {
        Map<String, String> texts = Map.of("S1:1", "I'd suggest Ruby or Python for the back end.", "S1:2", "Hi.");

        assertThat(ShownAnswer.of(question("I recommended Ruby, Python, or PHP.", "S1:2", "S1:1"), texts))
                .containsExactly("ruby", "python");
    }

    @Test
    void anAnswerWithNoWordInTheEvidence_isNotLookedFor() {
        Map<String, String> texts = Map.of("S1:1", "We caught seven bass at the lake.");

        assertThat(ShownAnswer.of(question("3 days", "S1:1"), texts)).isNull();
        assertThat(ShownAnswer.of(question("", "S1:1"), texts)).isNull();
        assertThat(ShownAnswer.of(question("seven", "S9:9"), texts)).isNull();
    }

    @Test
    void theShareShown_countsWholeWords_ignoringCaseAndStopWords() {
        Set<String> answer = ShownAnswer.words("in my Bedroom, 2014");

        assertThat(answer).containsExactly("bedroom", "2014");
        assertThat(ShownAnswer.shown(answer, "Moved it to the BEDROOM in 2014.")).isEqualTo(1.0);
        assertThat(ShownAnswer.shown(answer, "the bedrooms of 20145")).isEqualTo(0.0);
        assertThat(ShownAnswer.shown(answer, "bedroom only")).isEqualTo(0.5);
    }

    @Test
    void theContextIsReadAsItsMemoriesWroteIt() {
        String context = "<memory id=\"a\">Tom &amp; Jerry &lt;3</memory>";

        assertThat(ShownAnswer.unescape(context)).isEqualTo("<memory id=\"a\">Tom & Jerry <3</memory>");
        assertThat(ShownAnswer.unescape("plain")).isEqualTo("plain");
    }
}
