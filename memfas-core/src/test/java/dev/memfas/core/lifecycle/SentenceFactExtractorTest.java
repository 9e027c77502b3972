package dev.memfas.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Conversation.Message;
import dev.memfas.policy.FactExtractor;
import java.util.List;
import org.junit.jupiter.api.Test;

final class SentenceFactExtractorTest {
    private final SentenceFactExtractor extractor = new SentenceFactExtractor();

    @Test
    void eachKindOfStatement_isAFact_ofItsKind() {
        assertThat(SentenceFactExtractor.kind("I really prefer tea over coffee in the morning."))
                .isEqualTo("preference");
        assertThat(SentenceFactExtractor.kind("My favorite editor for Java is IntelliJ.")).isEqualTo("preference");
        assertThat(SentenceFactExtractor.kind("We decided to ship the billing change on Tuesday."))
                .isEqualTo("decision");
        assertThat(SentenceFactExtractor.kind("Let's go with the managed Postgres then.")).isEqualTo("decision");
        assertThat(SentenceFactExtractor.kind("The design review is on 3 March at noon.")).isEqualTo("event");
        assertThat(SentenceFactExtractor.kind("The release was cut 2026-02-11 after the freeze.")).isEqualTo("event");
        assertThat(SentenceFactExtractor.kind("Caroline moved to Berlin last spring with her kids.")).isEqualTo("fact");
        assertThat(SentenceFactExtractor.kind("Our oncall rota is owned by Marek now.")).isNull();
        assertThat(SentenceFactExtractor.kind("It is raining again over here.")).isNull();
        assertThat(SentenceFactExtractor.kind("The build is green on every branch.")).isNull();
    }

    @Test
    void questionsShortAndLongSentences_areNot_andTheFirstPersonNamesItsAuthor() {
        List<FactExtractor.Fact> facts = extractor.extract(List.of(
                Message.of("user", "Do you prefer tea or coffee? I like it."),
                Message.of("Ana", "I prefer green tea without sugar. " + "word ".repeat(45) + "I love it."),
                Message.of("assistant", "Sure.")));
        assertThat(facts).extracting(FactExtractor.Fact::text, FactExtractor.Fact::from)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Ana: I prefer green tea without sugar.",
                        List.of(1)));
    }
}
