package dev.memfas.core.turn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.DroppedMemory;
import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.core.FlooredEmbedder;
import dev.memfas.core.HashingEmbedder;
import dev.memfas.core.Memfas;
import dev.memfas.core.MutableClock;
import dev.memfas.core.PlacedEmbedder;
import dev.memfas.policy.WorldKnowledgeProbe;
import dev.memfas.spi.Embedder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A turn with nothing relevant to retrieve gets only what triggers and pinning put in its context. */
final class RelevanceGateTest {
    private static final Instant NOW = Instant.parse("2026-11-01T12:00:00Z");

    private ContextCurator curator;

    @AfterEach
    void close() {
        if (curator != null) {
            curator.close();
        }
    }

    /**
     * A curator whose turns end where the gate says, not where relevance ends by score: its relative floor is off, so
     * that all the gate lets through comes.
     */
    private ContextCurator curator(Memfas.Builder builder) {
        curator = builder.relativeFloor(0).clock(new MutableClock(NOW)).build();
        curator.rememberAll(List.of(memory("k1", "kafka retention is seven days"),
                memory("k2", "kafka has twelve partitions"), memory("l", "lunch is served at noon")));
        return curator;
    }

    private static Memory memory(String id, String text) {
        return Memory.builder(text).id(id).createdAt(NOW.minus(Duration.ofDays(1))).build();
    }

    private static Embedder embedder(double floor) {
        return new FlooredEmbedder(new HashingEmbedder(256), floor);
    }

    @Test
    void aQueryNothingMatches_getsAnEmptyContext_andTheExplanationSaysWhy() {
        curator(Memfas.newBuilder().embedder(embedder(0.3)));

        ContextResponse r = curator.getContext(ContextRequest.builder("capital of france").sessionId("s")
                .explain(true).build());

        assertThat(r.context()).isEmpty();
        assertThat(r.tokensUsed()).isZero();
        assertThat(r.dropped()).isNotEmpty().allSatisfy(d -> assertThat(d.reason())
                .isEqualTo(DroppedMemory.Reason.BELOW_RELEVANCE_FLOOR));
    }

    @Test
    void aQueryWithOneMatch_isCuratedAsBefore_weakerCandidatesIncluded() {
        curator(Memfas.newBuilder().embedder(embedder(0.3)));

        ContextResponse r = curator.getContext("kafka retention", "s");

        assertThat(r.memoryIds()).startsWith("k1").contains("k2", "l");
    }

    @Test
    void pinnedAndTriggeredMemories_comeWhateverTheQuery() {
        curator(Memfas.newBuilder().embedder(embedder(0.3)));
        curator.remember(Memory.builder("Always answer in British English.").id("p").pinned(true).createdAt(NOW)
                .build());
        curator.triggers().add(Trigger.of("france", "Metric units.", "l"));

        ContextResponse r = curator.getContext("capital of france", "s");

        assertThat(r.memoryIds()).containsExactlyInAnyOrder("l", "p");
        assertThat(r.triggersMatched()).containsExactly("france");
    }

    @Test
    void theBuildersFloor_overridesTheEmbeddersOne_andMinusOneTurnsTheCheckOff() {
        curator(Memfas.newBuilder().embedder(embedder(0.3)).relevanceFloor(-1));

        assertThat(curator.getContext("capital of france", "s").memoryIds()).hasSize(3);
    }

    @Test
    void withoutAnEmbedder_nothingIsGated() {
        curator(Memfas.newBuilder().relevanceFloor(0.99));

        assertThat(curator.getContext("kafka", "s").memoryIds()).contains("k1", "k2");
    }

    @Test
    void badFloorsAreRejectedWithTheirValue() {
        assertThatThrownBy(() -> Memfas.newBuilder().relevanceFloor(1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1.5");
        assertThatThrownBy(() -> Memfas.newBuilder().relevanceFloor(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThatThrownBy(() -> Memfas.newBuilder().embedder(embedder(7)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("7.0")
                .hasMessageContaining("hashing-256");
    }

    /** A curator over memories placed at the given cosines; minimum score 0, so the gate alone decides. */
    private ContextCurator placed(double meaningAlone, Map<String, Double> cosines) {
        curator = Memfas.newBuilder().relativeFloor(0).embedder(new PlacedEmbedder(cosines, meaningAlone)).minScore(0)
                .clock(new MutableClock(NOW)).build();
        curator.rememberAll(cosines.keySet().stream().map(t -> memory(t.split(" ")[0], t)).toList());
        return curator;
    }

    @Test
    void betweenTheFloors_withNoWordInCommon_theBestMatchComesWithoutTheOtherMatches() {
        // mars is over the relevance floor (0.5) too, but below the meaning-alone floor a runner-up is mostly noise
        placed(0.7, Map.of("horoscope taurus sun in the third house", 0.6, "mars trine uranus", 0.55,
                "lunch is at noon", 0.45));

        ContextResponse r = curator.getContext(ContextRequest.builder("square root of 144").sessionId("s")
                .explain(true).build());

        assertThat(r.memoryIds()).containsExactly("horoscope");
        assertThat(r.dropped()).extracting(DroppedMemory::memoryId).containsExactlyInAnyOrder("mars", "lunch");
        assertThat(r.dropped()).allSatisfy(d -> assertThat(d.reason())
                .isEqualTo(DroppedMemory.Reason.BELOW_RELEVANCE_FLOOR));
    }

    @Test
    void betweenTheFloors_aBestMatchSharingAWord_letsEverythingThrough() {
        placed(0.7, Map.of("rest the knee after the long run", 0.65, "mars trine uranus", 0.6, "lunch is at noon",
                0.3));

        assertThat(curator.getContext("why does my knee hurt", "s").memoryIds())
                .containsExactlyInAnyOrder("rest", "mars", "lunch");
    }

    @Test
    void betweenTheFloors_aWordInCommonOnlyWithTheSecondBest_isNotEnough() {
        placed(0.7, Map.of("horoscope taurus sun", 0.66, "rest the knee after the long run", 0.64,
                "lunch is at noon", 0.3));

        assertThat(curator.getContext("why does my knee hurt", "s").memoryIds())
                .containsExactlyInAnyOrder("horoscope", "rest");
    }

    @Test
    void betweenTheFloors_aRunnerUpSharingAWord_comesWithTheBest_oneUnderTheFloorDoesNot() {
        placed(0.7, Map.of("horoscope taurus sun", 0.66, "mars trine uranus", 0.64, "knee brace size medium", 0.62,
                "rest the knee after the long run", 0.45, "lunch is at noon", 0.3));

        ContextResponse r = curator.getContext(ContextRequest.builder("why does my knee hurt").sessionId("s")
                .explain(true).build());

        assertThat(r.memoryIds()).containsExactlyInAnyOrder("horoscope", "knee");
        assertThat(r.dropped()).extracting(DroppedMemory::memoryId).containsExactlyInAnyOrder("mars", "rest", "lunch");
    }

    @Test
    void atTheMeaningAloneFloor_noWordInCommonIsNeeded() {
        placed(0.7, Map.of("adopted a grey cat called pepper", 0.71, "mars trine uranus", 0.2));

        assertThat(curator.getContext("which pet do I have", "s").memoryIds()).containsExactly("adopted", "mars");
    }

    @Test
    void anEmbedderWithoutAMeaningAloneFloor_letsMeaningDecideAtTheRelevanceFloor() {
        placed(Double.NaN, Map.of("horoscope taurus sun", 0.55, "lunch is at noon", 0.3));

        assertThat(curator.getContext("square root of 144", "s").memoryIds())
                .containsExactlyInAnyOrder("horoscope", "lunch");
    }

    @Test
    void theBuildersMeaningAloneFloor_overridesTheEmbeddersOne() {
        curator = Memfas.newBuilder().relativeFloor(0).embedder(new PlacedEmbedder(Map.of("horoscope taurus sun", 0.55,
                "lunch is at noon", 0.3), 0.7)).meaningAloneFloor(0.5).minScore(0).clock(new MutableClock(NOW))
                .build();
        curator.rememberAll(List.of(memory("horoscope", "horoscope taurus sun"), memory("lunch", "lunch is at noon")));

        assertThat(curator.getContext("square root of 144", "s").memoryIds())
                .containsExactlyInAnyOrder("horoscope", "lunch");
    }

    @Test
    void aMeaningAloneFloorUnderTheRelevanceFloor_isRefusedNamingBoth() {
        assertThatThrownBy(() -> Memfas.newBuilder().meaningAloneFloor(1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("meaning-alone floor")
                .hasMessageContaining("1.5");
        assertThatThrownBy(() -> Memfas.newBuilder().embedder(new PlacedEmbedder(Map.of(), 0.7))
                .meaningAloneFloor(0.4).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("meaning-alone floor must not be under the relevance floor 0.5: 0.4");
    }

    @Test
    void aRaisedRelevanceFloor_raisesTheEmbeddersMeaningAloneFloorWithIt() {
        curator = Memfas.newBuilder().relativeFloor(0)
                .embedder(new PlacedEmbedder(Map.of("adopted a grey cat", 0.75), 0.7))
                .relevanceFloor(0.8).clock(new MutableClock(NOW)).build();
        curator.remember(memory("adopted", "adopted a grey cat"));

        assertThat(curator.getContext("which pet do I have", "s").context()).isEmpty();
        assertThat(curator.getContext("which cat do I have", "s").context()).isEmpty();
    }

    /** A curator of two memories by two authors, embedded by words; the hashing embedder records what it embeds. */
    private HashingEmbedder authored() {
        HashingEmbedder terms = new HashingEmbedder(256);
        curator = Memfas.newBuilder().relativeFloor(0).embedder(new FlooredEmbedder(terms, 0.3))
                .clock(new MutableClock(NOW)).build();
        curator.rememberAll(List.of(
                Memory.builder("I adopted a grey cat").id("cat").author("Caroline").createdAt(NOW).build(),
                Memory.builder("kafka has twelve partitions").id("k").author("Melanie").createdAt(NOW).build()));
        return terms;
    }

    @Test
    void aQueryNamingAnAuthor_isLetThrough_andEmbeddedWithTheNameReadAsSomeone() {
        HashingEmbedder terms = authored();

        ContextResponse named = curator.getContext("What is Caroline's favorite football team?", "s");
        ContextResponse unknown = curator.getContext("What is Gina's favorite football team?", "s");

        assertThat(terms.embedded).contains("What is someone's favorite football team?",
                "What is Gina's favorite football team?").doesNotContain("What is Caroline's favorite football team?");
        assertThat(named.memoryIds()).containsExactlyInAnyOrder("cat", "k");
        assertThat(unknown.context()).isEmpty();
    }

    @Test
    void aFollowUpReferringToSomeone_isReadAsNamingTheAuthorItsHistoryNamesLast() {
        HashingEmbedder terms = authored();
        String question = "What is her favorite football team?";

        ContextResponse afterCaroline = curator.getContext(ContextRequest.builder(question).sessionId("s1")
                .recentHistory(List.of("Melanie said hello.", "Let's talk about Melanie and then Caroline.")).build());
        ContextResponse afterGina = curator.getContext(ContextRequest.builder(question).sessionId("s2")
                .recentHistory(List.of("Let's talk about Gina.")).build());
        ContextResponse noPronoun = curator.getContext(ContextRequest.builder("What is the favorite football team?")
                .sessionId("s3").recentHistory(List.of("Let's talk about Caroline.")).build());

        // Read as naming Caroline, the last author named in the latest message: let through as a named author is.
        assertThat(afterCaroline.memoryIds()).containsExactlyInAnyOrder("cat", "k");
        assertThat(terms.embedded).contains(question);
        assertThat(afterGina.context()).isEmpty();
        assertThat(noPronoun.context()).isEmpty();
    }

    @Test
    void aFollowUpReferringToSomeone_withoutAHistory_isReadWithTheQueriesItsSessionAskedBefore() {
        authored();
        String question = "What is her favorite football team?";
        curator.getContext("Let's talk about Caroline.", "s1");
        curator.getContext("Let's talk about Gina.", "s2");

        ContextResponse afterCaroline = curator.getContext(question, "s1");
        ContextResponse afterGina = curator.getContext(question, "s2");
        ContextResponse noSession = curator.getContext(ContextRequest.builder(question).build());

        assertThat(afterCaroline.memoryIds()).containsExactlyInAnyOrder("cat", "k");
        assertThat(afterGina.context()).isEmpty();
        assertThat(noSession.context()).isEmpty();
    }

    /** A placed embedder whose probe reads every query (all on the first axis) as the given weight says. */
    private record ProbedEmbedder(PlacedEmbedder placed, float firstWeight, int probeDimension) implements Embedder {
        ProbedEmbedder(PlacedEmbedder placed, float firstWeight) {
            this(placed, firstWeight, placed.dimension());
        }

        @Override
        public List<float[]> embedAll(List<String> texts) {
            return placed.embedAll(texts);
        }

        @Override
        public int dimension() {
            return placed.dimension();
        }

        @Override
        public String modelId() {
            return placed.modelId();
        }

        @Override
        public OptionalDouble relevanceFloor() {
            return placed.relevanceFloor();
        }

        @Override
        public OptionalDouble meaningAloneFloor() {
            return placed.meaningAloneFloor();
        }

        @Override
        public Optional<WorldKnowledgeProbe> worldKnowledgeProbe() {
            float[] weights = new float[probeDimension];
            weights[0] = firstWeight;
            return Optional.of(WorldKnowledgeProbe.of(weights, 0));
        }
    }

    private static final Map<String, Double> ROUTINE = Map.of("routine up at six, gym before work", 0.72,
            "mars trine uranus", 0.6, "lunch is at noon", 0.3);

    private ContextCurator probed(float firstWeight, Memfas.Builder builder) {
        curator = builder.embedder(new ProbedEmbedder(new PlacedEmbedder(ROUTINE, 0.7), firstWeight)).minScore(0)
                .relativeFloor(0)
                .clock(new MutableClock(NOW)).build();
        curator.rememberAll(ROUTINE.keySet().stream().map(t -> memory(t.split(" ")[0], t)).toList());
        return curator;
    }

    @Test
    void aQueryReadAsAboutTheWorld_meetsBothFloorsRaised() {
        // p = 0.993: floors 0.5 and 0.7 become 0.58 and 0.78, so the best (0.72) is between them, sharing no word
        probed(5, Memfas.newBuilder());

        assertThat(curator.getContext("how many minutes are in a day", "s").memoryIds()).containsExactly("routine");
    }

    @Test
    void aQueryReadAsAboutTheMemories_meetsTheFloorsAsCalibrated() {
        probed(-5, Memfas.newBuilder());

        assertThat(curator.getContext("how many minutes are in a day", "s").memoryIds())
                .containsExactlyInAnyOrder("routine", "mars", "lunch");
    }

    @Test
    void theRaise_isTheBuilders_andZeroReadsEveryQueryAlike() {
        probed(5, Memfas.newBuilder().worldKnowledgeRaise(0.3));
        assertThat(curator.getContext("how many minutes are in a day", "s").memoryIds()).isEmpty();
        curator.close();

        probed(5, Memfas.newBuilder().worldKnowledgeRaise(0));
        assertThat(curator.getContext("how many minutes are in a day", "s").memoryIds())
                .containsExactlyInAnyOrder("routine", "mars", "lunch");
    }

    @Test
    void aProbeOfAnotherLengthThanTheEmbeddersVectors_isRefusedAtBuild() {
        assertThatThrownBy(() -> Memfas.newBuilder()
                .embedder(new ProbedEmbedder(new PlacedEmbedder(ROUTINE, 0.7), 5, 8)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the embedder's world-knowledge probe reads 8 dimensions and its vectors have 16 (placed)");
    }

    @Test
    void aRaiseOutOfRange_isRefusedWithItsValue() {
        assertThatThrownBy(() -> Memfas.newBuilder().worldKnowledgeRaise(-0.1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("world-knowledge raise must be in [0, 2]").hasMessageContaining("-0.1");
        assertThatThrownBy(() -> Memfas.newBuilder().worldKnowledgeRaise(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
    }
}
