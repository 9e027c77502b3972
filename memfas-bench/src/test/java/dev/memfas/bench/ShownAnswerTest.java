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
    void anAnswerWrittenOutInTheEvidence_isLookedFor_lowerCased_withoutItsFinalPeriod() {
        Map<String, String> texts = Map.of("S1:1", "The case was decided in 2014, on appeal.", "S1:2", "Nothing.");

        assertThat(ShownAnswer.of(question("2014.", "S1:2", "S1:1"), texts)).isEqualTo("2014");
        assertThat(ShownAnswer.of(question("On Appeal", "S1:1"), texts)).isEqualTo("on appeal");
    }

    @Test
    void anAnswerNotInTheEvidence_orShorterThanFourCharacters_isNotLookedFor() {
        Map<String, String> texts = Map.of("S1:1", "We caught 7 bass at the lake.");

        assertThat(ShownAnswer.of(question("7", "S1:1"), texts)).isNull();
        assertThat(ShownAnswer.of(question("twelve bass", "S1:1"), texts)).isNull();
        assertThat(ShownAnswer.of(question("", "S1:1"), texts)).isNull();
        assertThat(ShownAnswer.of(question("bass at the lake", "S9:9"), texts)).isNull();
    }

    @Test
    void theAnswerIsFoundOnlyAsWholeWords() {
        assertThat(ShownAnswer.in("2014", "filed in 2014.")).isTrue();
        assertThat(ShownAnswer.in("2014", "case 20145 and 12014")).isFalse();
        assertThat(ShownAnswer.in("2014", "case 20145, then 2014")).isTrue();
        assertThat(ShownAnswer.in("hall", "Revolution HALL")).isTrue();
        assertThat(ShownAnswer.in("hall", "hallway")).isFalse();
        assertThat(ShownAnswer.in("$12", "each mug cost $12")).isTrue();
    }

    @Test
    void theContextIsReadAsItsMemoriesWroteIt() {
        String context = "<memory id=\"a\">Tom &amp; Jerry &lt;3</memory>";

        assertThat(ShownAnswer.in("tom & jerry <3", ShownAnswer.unescape(context))).isTrue();
        assertThat(ShownAnswer.unescape("plain")).isEqualTo("plain");
    }
}
