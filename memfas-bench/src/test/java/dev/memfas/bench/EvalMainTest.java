package dev.memfas.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.djl.DjlEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A smoke run of the evaluation on a tiny conversation written for this test, with the default model. */
final class EvalMainTest {
    /** Ten turns in two sessions, in the layout the runner reads. */
    private static final String MEMORIES = """
{"id": "D1:1", "text": "Ana: Morning Ben! I finally adopted a cat from the shelter on Saturday.", "speaker": "Ana", "session": 1, "turn": 1, "seq": 0, "timestamp": "2024-03-04T09:00:00", "utterance": "Morning Ben! I finally adopted a cat from the shelter on Saturday."}
{"id": "D1:2", "text": "Ben: That's great! What did you name the cat?", "speaker": "Ben", "session": 1, "turn": 2, "seq": 1, "timestamp": "2024-03-04T09:00:00", "utterance": "That's great! What did you name the cat?"}
{"id": "D1:3", "text": "Ana: Her name is Pepper, she is grey with white paws.", "speaker": "Ana", "session": 1, "turn": 3, "seq": 2, "timestamp": "2024-03-04T09:00:00", "utterance": "Her name is Pepper, she is grey with white paws."}
{"id": "D1:4", "text": "Ben: I started training for the city half marathon in June.", "speaker": "Ben", "session": 1, "turn": 4, "seq": 3, "timestamp": "2024-03-04T09:00:00", "utterance": "I started training for the city half marathon in June."}
{"id": "D1:5", "text": "Ana: Good luck with the running, Ben.", "speaker": "Ana", "session": 1, "turn": 5, "seq": 4, "timestamp": "2024-03-04T09:00:00", "utterance": "Good luck with the running, Ben."}
{"id": "D2:1", "text": "Ben: My knee hurt after a long run, so the physio told me to rest for two weeks.", "speaker": "Ben", "session": 2, "turn": 1, "seq": 5, "timestamp": "2024-04-10T18:30:00", "utterance": "My knee hurt after a long run, so the physio told me to rest for two weeks."}
{"id": "D2:2", "text": "Ana: Sorry to hear that. Pepper knocked my coffee off the table this morning.", "speaker": "Ana", "session": 2, "turn": 2, "seq": 6, "timestamp": "2024-04-10T18:30:00", "utterance": "Sorry to hear that. Pepper knocked my coffee off the table this morning."}
{"id": "D2:3", "text": "Ana: I also signed up for a pottery class on Thursday evenings.", "speaker": "Ana", "session": 2, "turn": 3, "seq": 7, "timestamp": "2024-04-10T18:30:00", "utterance": "I also signed up for a pottery class on Thursday evenings."}
{"id": "D2:4", "text": "Ben: Pottery sounds relaxing. Are you making mugs?", "speaker": "Ben", "session": 2, "turn": 4, "seq": 8, "timestamp": "2024-04-10T18:30:00", "utterance": "Pottery sounds relaxing. Are you making mugs?"}
{"id": "D2:5", "text": "Ana: Yes, my first project is a blue mug for my sister.", "speaker": "Ana", "session": 2, "turn": 5, "seq": 9, "timestamp": "2024-04-10T18:30:00", "utterance": "Yes, my first project is a blue mug for my sister."}
""";
    private static final String QUERIES = """
{"id": "conv-a:q0001", "question": "What is the name of Ana's cat?", "evidence": ["D1:3"], "category": 4, "answer": "Pepper"}
{"id": "conv-a:q0002", "question": "Why did Ben stop running for two weeks?", "evidence": ["D2:1"], "category": 1, "answer": "knee"}
{"id": "conv-a:q0003", "question": "When did Ana adopt her cat?", "evidence": ["D1:1"], "category": 2, "answer": "the Saturday before 4 March 2024"}
{"id": "conv-a:q0004", "question": "What would Ana likely enjoy as a gift?", "evidence": ["D2:3", "D2:5"], "category": 3, "answer": "pottery supplies"}
{"id": "conv-a:q0005", "question": "What did Ben say about his swimming lessons?", "evidence": ["D1:4"], "category": 5}
{"id": "conv-a:q0006", "question": "What is Ana's favourite colour?", "evidence": [], "category": 3, "answer": ""}
""";

    @TempDir
    Path out;

    @TempDir
    Path data;

    /** The result of a system at a budget in eval.json. */
    private static JsonNode result(JsonNode json, String system, int budget) {
        for (JsonNode r : json.get("results")) {
            if (r.get("system").asString().equals(system) && r.get("budget").asInt() == budget) {
                return r;
            }
        }
        throw new AssertionError("no result for " + system + " at " + budget);
    }

    @Test
    void namedCategories_asLongMemEvalHasThem_areReportedOneColumnEach() throws Exception {
        Path conv = Files.createDirectories(data.resolve("dev/conv-b"));
        Files.writeString(conv.resolve("memories.jsonl"), MEMORIES);
        Files.writeString(conv.resolve("queries.jsonl"), QUERIES
                .replace("\"category\": 4", "\"category\": \"single-session-user\"")
                .replace("\"category\": 1,", "\"category\": \"multi-session\",")
                .replace("\"category\": 2", "\"category\": \"temporal-reasoning\"")
                .replace("\"category\": 3", "\"category\": \"multi-session\"")
                .replace("\"category\": 5", "\"category\": \"knowledge-update\""));

        String md = EvalMain.run(data, out, new int[] {512}, DjlEmbedder.DEFAULT_MODEL.modelId(), List.of());

        assertThat(md).contains("5 questions with evidence")
                .contains("| system | budget | recall | knowledge-update | multi-session | single-session-user |"
                        + " temporal-reasoning | all evidence |");
        JsonNode memfas = JsonMapper.builder().build().readTree(Files.readString(out.resolve("eval.json")))
                .get("results").get(0);
        assertThat(memfas.get("system").asString()).isEqualTo("memfas");
        assertThat(memfas.get("questions").asInt()).isEqualTo(5);
        assertThat(memfas.get("recall").asDouble()).isBetween(0.0, 1.0);
        assertThat(memfas.get("recall_by_category").get("single-session-user").asDouble()).isEqualTo(1.0);
        assertThat(memfas.has("recall_cat1_4")).isFalse();
    }

    @Test
    void evaluatesTheFixture_andWritesJsonAndMarkdown() throws Exception {
        Path conv = Files.createDirectories(data.resolve("dev/conv-a"));
        Files.writeString(conv.resolve("memories.jsonl"), MEMORIES);
        Files.writeString(conv.resolve("queries.jsonl"), QUERIES);

        String md = EvalMain.run(data, out, new int[] {64, 512}, DjlEmbedder.DEFAULT_MODEL.modelId(),
                List.of(EvalVariant.parse("no-recency=recency:0,candidates:20")));

        assertThat(md).contains("| memfas | 64 |").contains("| no-recency | 512 |").contains("| recent | 512 |")
                .contains("| bm25 | 512 |").contains("| rrf | 512 |").contains("| dense | 512 |")
                .contains("| system | sessions @5 | sessions @10 |")
                .contains("40 general questions no conversation answers");
        assertThat(Files.readString(out.resolve("eval.md"))).isEqualTo(md);
        JsonNode json = JsonMapper.builder().build().readTree(Files.readString(out.resolve("eval.json")));
        assertThat(json.get("results")).hasSize(14);
        // The defaults stop where relevance ends; asked to fill the budget, the same curator takes more.
        assertThat(result(json, "filled", 512).get("mean_tokens").asDouble())
                .isGreaterThan(result(json, "memfas", 512).get("mean_tokens").asDouble());
        assertThat(result(json, "filled", 512).get("recall_cat1_4").asDouble())
                .isGreaterThanOrEqualTo(result(json, "memfas", 512).get("recall_cat1_4").asDouble());
        // The recent baseline finds little in a small conversation: there are misses to list.
        assertThat(Files.readAllLines(out.resolve("misses.jsonl"))).isNotEmpty();
        for (String line : Files.readAllLines(out.resolve("misses.jsonl"))) {
            JsonNode miss = JsonMapper.builder().build().readTree(line);
            assertThat(miss.get("recall").asDouble()).isLessThan(1.0);
            assertThat(miss.get("missing")).isNotEmpty();
            assertThat(miss.get("question").asString()).isNotBlank();
        }
        for (JsonNode row : json.get("results")) {
            // 4 questions with evidence in categories 1-4; the one without evidence is skipped, category 5 apart.
            assertThat(row.get("questions").asInt()).isEqualTo(4);
            assertThat(row.get("recall_cat1_4").asDouble()).isBetween(0.0, 1.0);
            assertThat(row.get("mean_tokens").asDouble()).isLessThanOrEqualTo(row.get("budget").asDouble());
            assertThat(row.get("general_fill").asDouble()).isBetween(0.0, 1.0);
        }
        JsonNode memfas512 = result(json, "memfas", 512);
        // At 512 tokens the whole ten-turn conversation fits: every piece of evidence is found.
        assertThat(memfas512.get("recall_cat1_4").asDouble()).isEqualTo(1.0);
        assertThat(memfas512.get("recall_cat5").asDouble()).isEqualTo(1.0);
        JsonNode recent64 = result(json, "recent", 64);
        assertThat(recent64.get("recall_cat1_4").asDouble()).isLessThan(1.0);
        // The two sessions are both among the first five of any ranking of this conversation; recent ranks nothing.
        assertThat(memfas512.get("session_recall_at5").asDouble()).isEqualTo(1.0);
        assertThat(result(json, "rrf", 512).get("session_recall_at10").asDouble()).isEqualTo(1.0);
        assertThat(recent64.get("session_recall_at5").isNull()).isTrue();
        // The peers fill the budget whatever the question; the whole conversation is under 512 tokens.
        JsonNode rrf512 = result(json, "rrf", 512);
        assertThat(rrf512.get("general_fill").asDouble()).isGreaterThan(0.2);
        // memfas's relevance floor leaves most general questions with an empty context.
        assertThat(memfas512.get("general_fill").asDouble()).isLessThan(0.1);
        assertThat(memfas512.get("general_empty_share").asDouble()).isGreaterThan(0.8);
        assertThat(rrf512.get("recall_cat1_4").asDouble()).isEqualTo(1.0);
        // "Pepper", "knee", "Saturday" and "pottery" are written out in their questions' evidence.
        assertThat(md).contains("Answer shown: the mean share of the answer's words (those its evidence writes out;"
                + " 4 questions)");
        assertThat(memfas512.get("answer_shown_questions").asInt()).isEqualTo(4);
        assertThat(memfas512.get("answer_shown").asDouble()).isEqualTo(1.0);
        assertThat(recent64.get("answer_shown").asDouble()).isLessThan(1.0);
    }

    @Test
    void aVariantOfUnnamedTurns_readsTheCuratorsIdsBackAsTheTurns() throws Exception {
        Path conv = Files.createDirectories(data.resolve("dev/conv-a"));
        Files.writeString(conv.resolve("memories.jsonl"), MEMORIES);
        Files.writeString(conv.resolve("queries.jsonl"), QUERIES);

        EvalMain.run(data, new EvalMain.Options(out, new int[] {512}, DjlEmbedder.DEFAULT_MODEL.modelId(), false,
                null, List.of(EvalVariant.parse("unnamed=unnamed:1")), null, EvalHistory.NONE));

        JsonNode results = JsonMapper.builder().build().readTree(Files.readString(out.resolve("eval.json")))
                .get("results");
        JsonNode unnamed = results.get(2);
        assertThat(unnamed.get("system").asString()).isEqualTo("unnamed");
        // The whole conversation fits in 512 tokens: every turn is found under the id the curator gave it.
        assertThat(unnamed.get("recall_cat1_4").asDouble()).isEqualTo(1.0);
        assertThat(unnamed.get("session_recall_at5").asDouble()).isEqualTo(1.0);
        assertThat(unnamed.get("mean_tokens").asDouble()).isGreaterThan(0);
        assertThat(EvalVariant.parse("unnamed=unnamed:1").unnamed()).isTrue();
        assertThat(EvalVariant.parse("named=recency:0").unnamed()).isFalse();
    }

    @Test
    void theVectorCache_servesStoredVectors_andAsksTheModelOnlyForNewTexts() throws Exception {
        List<List<String>> asked = new ArrayList<>();
        Function<List<String>, List<float[]>> model = texts -> {
            asked.add(texts);
            return texts.stream().map(t -> new float[] {t.length(), 1}).toList();
        };
        VectorCache first = VectorCache.open(out, "m");
        assertThat(first.embed(List.of("a", "bb", "a"), model)).extracting(v -> v[0]).containsExactly(1f, 2f, 1f);
        VectorCache reopened = VectorCache.open(out, "m");
        assertThat(reopened.embed(List.of("bb", "ccc"), model)).extracting(v -> v[0]).containsExactly(2f, 3f);
        assertThat(asked).containsExactly(List.of("a", "bb"), List.of("ccc"));

        Files.write(out.resolve("m.vectors"), new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
        assertThatThrownBy(() -> VectorCache.open(out, "m")).hasMessageContaining("truncated record")
                .hasMessageContaining("m.vectors");
        assertThatThrownBy(() -> VectorCache.open(out, "../m")).hasMessageContaining("'../m'");
    }

    @Test
    void plainBm25_ranksByRareWords_andReciprocalRankFusion_addsBothRanks() {
        PlainBm25 bm25 = new PlainBm25(List.of("the cat sat on the mat", "a dog and a cat", "dogs bark at night",
                "nothing in common"));
        // Both share "cat"; the shorter turn (two words besides stop words, against three) ranks first.
        assertThat(bm25.rank("Where is the cat?")).containsExactly(1, 0);
        assertThat(bm25.rank("dog")).containsExactly(1);
        assertThat(bm25.rank("the of")).isEmpty();

        // 1 is second and first (1/62 + 1/61), 2 first and third (1/61 + 1/63), 3 and 0 in one list only.
        assertThat(RrfHybrid.fuse(List.of(2, 1, 0), List.of(1, 3, 2))).containsExactly(1, 2, 3, 0);
    }

    @Test
    void questionsAskedAsFollowUps_carryTheQuestionAsHistory_andTheReportSaysSo() throws Exception {
        Path conv = Files.createDirectories(data.resolve("dev/conv-a"));
        Files.writeString(conv.resolve("memories.jsonl"), MEMORIES);
        Files.writeString(conv.resolve("queries.jsonl"), QUERIES);

        String md = EvalMain.run(data, new EvalMain.Options(out, new int[] {512}, DjlEmbedder.DEFAULT_MODEL.modelId(),
                false, null, List.of(), null, EvalHistory.FOLLOW_UP));

        assertThat(md).contains("each asked as a follow-up (\"Tell me more about that.\" with the question as recent"
                + " history");
        JsonNode json = JsonMapper.builder().build().readTree(Files.readString(out.resolve("eval.json")));
        assertThat(json.get("history").asString()).isEqualTo("follow-up");
        // recent ignores the question: asked as a follow-up or not, it reads the same last turns
        assertThat(json.get("results").get(3).get("system").asString()).isEqualTo("recent");
        assertThat(json.get("results").get(0).get("recall_cat1_4").asDouble()).isBetween(0.0, 1.0);
    }

    @Test
    void history_buildsTheRequestItNames_andRefusesOtherNames() {
        assertThat(EvalHistory.NONE.request("Q?", "P?", List.of()).build().recentHistory()).isEmpty();
        assertThat(EvalHistory.PREVIOUS.request("Q?", "P?", List.of()).build().recentHistory()).containsExactly("P?");
        assertThat(EvalHistory.PREVIOUS.request("Q?", null, List.of()).build().recentHistory()).isEmpty();
        assertThat(EvalHistory.PREVIOUS.request("Q?", "P?", List.of()).build().query()).isEqualTo("Q?");
        assertThat(EvalHistory.FOLLOW_UP.request("Q?", "P?", List.of()).build()).satisfies(r -> {
            assertThat(r.query()).isEqualTo(EvalHistory.FOLLOW_UP_QUERY);
            assertThat(r.recentHistory()).containsExactly("Q?");
        });
        assertThat(EvalHistory.FOLLOW_UP_PREVIOUS.request("Q?", "P?", List.of()).build()).satisfies(r -> {
            assertThat(r.query()).isEqualTo(EvalHistory.FOLLOW_UP_QUERY);
            assertThat(r.recentHistory()).containsExactly("P?", "Q?");
        });
        assertThat(EvalHistory.FOLLOW_UP_PREVIOUS.request("Q?", null, List.of()).build().recentHistory())
                .containsExactly("Q?");
        assertThat(EvalHistory.parse(" Follow-Up ")).isEqualTo(EvalHistory.FOLLOW_UP);
        assertThat(EvalHistory.parse("follow-up-previous")).isEqualTo(EvalHistory.FOLLOW_UP_PREVIOUS);
        assertThatThrownBy(() -> EvalHistory.parse("always")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--history is none, previous, follow-up, follow-up-previous, pronoun, follow-up-session"
                        + " or pronoun-session: 'always'");
    }

    @Test
    void theSessionModes_askTheTurnBeforeInTheSession_andTheFollowUpWithoutHistory() {
        List<String> speakers = List.of("Caroline", "Melanie");
        String question = "When did Caroline go to the LGBTQ support group?";

        assertThat(EvalHistory.PRONOUN_SESSION.askedBefore(question, speakers)).isEqualTo("Let's talk about Caroline.");
        assertThat(EvalHistory.PRONOUN_SESSION.request(question, "P?", speakers).build()).satisfies(r -> {
            assertThat(r.query()).isEqualTo("When did they go to the LGBTQ support group?");
            assertThat(r.recentHistory()).isEmpty();
        });
        assertThat(EvalHistory.PRONOUN_SESSION.askedBefore("Where is the pottery class?", speakers)).isNull();
        assertThat(EvalHistory.FOLLOW_UP_SESSION.askedBefore(question, speakers)).isEqualTo(question);
        assertThat(EvalHistory.FOLLOW_UP_SESSION.request(question, "P?", speakers).build().query())
                .isEqualTo(EvalHistory.FOLLOW_UP_QUERY);
        assertThat(EvalHistory.PRONOUN.askedBefore(question, speakers)).isNull();
        assertThat(EvalHistory.parse("pronoun-session")).isEqualTo(EvalHistory.PRONOUN_SESSION);
    }

    @Test
    void aQuestionNamingOneSpeaker_isAskedAfterATurnAboutThem_withTheNameReadAsThey() {
        List<String> speakers = List.of("Caroline", "Melanie", "user");

        assertThat(EvalHistory.PRONOUN.request("When did Caroline go to the LGBTQ support group?", "P?", speakers)
                .build()).satisfies(r -> {
                    assertThat(r.query()).isEqualTo("When did they go to the LGBTQ support group?");
                    assertThat(r.recentHistory()).containsExactly("Let's talk about Caroline.");
                });
        assertThat(EvalHistory.rewrite("What fields would Caroline be likely to pursue in Caroline's education?",
                speakers)).isEqualTo(new EvalHistory.FollowUp("Let's talk about Caroline.",
                        "What fields would they be likely to pursue in their education?"));
        // Two speakers named, none, a name inside another word, or the lower-case "user": asked as they are.
        assertThat(EvalHistory.rewrite("Did Caroline and Melanie meet?", speakers)).isNull();
        assertThat(EvalHistory.rewrite("Where is the pottery class?", speakers)).isNull();
        assertThat(EvalHistory.rewrite("Who is Carolinee?", speakers)).isNull();
        assertThat(EvalHistory.rewrite("What did the user buy?", speakers)).isNull();
        assertThat(EvalHistory.PRONOUN.request("Where is the pottery class?", "P?", speakers).build().recentHistory())
                .isEmpty();
    }

    @Test
    void badVariantsAreRejectedWithTheirText() {
        assertThatThrownBy(() -> EvalVariant.parse("x=speed:2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown variant setting 'speed'");
        assertThatThrownBy(() -> EvalVariant.parse("semantic:1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'semantic:1'");
        assertThatThrownBy(() -> EvalVariant.parse("bm25=semantic:1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'bm25' is taken");
        assertThatThrownBy(() -> EvalVariant.parse("x=semantic:-1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("semantic weight");
    }

    @Test
    void theRelevanceFloor_isThe95thPercentileOfTheBestCosines_roundedUpToAHundredth() {
        double[] best = new double[100];
        for (int i = 0; i < best.length; i++) {
            best[i] = 0.40 + i * 0.002;
        }
        // The 95th of 100 sorted values is 0.40 + 94 * 0.002 = 0.588, which rounds up to 0.59.
        assertThat(RelevanceFloorCalibration.floor(best)).isEqualTo(0.59);
        assertThat(RelevanceFloorCalibration.floor(new double[] {0.57})).isEqualTo(0.57);
        assertThat(RelevanceFloorCalibration.report("m", best)).contains("p95 0.5880")
                .contains("floor (p95, rounded up): 0.59");
    }

    @Test
    void calibration_measuresTheBestCosineOfEachQuestionInEachConversation() throws Exception {
        Path conv = Files.createDirectories(data.resolve("dev/conv-a"));
        Files.writeString(conv.resolve("memories.jsonl"), MEMORIES);
        try (DjlEmbedder embedder = DjlEmbedder.defaultModel()) {
            double[] best = RelevanceFloorCalibration.bestCosines(List.of(data), embedder, VectorCache.open(null,
                    embedder.modelId()));
            // 40 questions, one conversation; sorted, and no general question comes close to a personal turn.
            assertThat(best).hasSize(40).isSorted();
            assertThat(best[best.length - 1]).isLessThan(0.8);
        }
    }
}
