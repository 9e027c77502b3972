package dev.memfas.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The evaluation's input: conversations in the LoCoMo layout, and the general questions no conversation answers. */
final class EvalData {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The category of the general questions, asked of every conversation. */
    static final String GENERAL = "general";

    private EvalData() {}

    /**
     * One remembered turn; {@code session} names the session it belongs to within its conversation, {@code speaker}
     * who said it (null when the data does not say).
     */
    record Turn(String id, String text, Instant createdAt, String session, String speaker) {}

    /**
     * One question: the turns that answer it ({@code evidence}, empty for a general question), the sessions they
     * belong to, and the expected answer as the data writes it (empty when it has none).
     */
    record Question(String id, String text, Set<String> evidence, Set<String> evidenceSessions, String category,
            String answer) {
        boolean answerable() {
            return !evidence.isEmpty();
        }
    }

    /** A conversation: its turns in order, its questions with evidence, and the time the questions are asked. */
    record Conversation(String name, List<Turn> turns, List<Question> questions, Clock clock) {}

    /**
     * Reads {@code memories.jsonl} and {@code queries.jsonl} of one conversation. Questions without evidence are left
     * out. The questions are asked at their {@code question_timestamp} where the data has one (LongMemEval: one per
     * haystack; the latest if several), otherwise a minute after the last turn (LoCoMo).
     */
    static Conversation load(Path dir) throws IOException {
        List<Turn> turns = loadTurns(dir);
        Map<String, String> sessionOf = new HashMap<>();
        turns.forEach(t -> sessionOf.put(t.id(), t.session()));
        List<Question> questions = new ArrayList<>();
        Instant asked = null;
        for (String line : Files.readAllLines(dir.resolve("queries.jsonl"))) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode q = JSON.readTree(line);
            Set<String> evidence = new LinkedHashSet<>();
            q.get("evidence").forEach(e -> evidence.add(e.asString()));
            if (evidence.isEmpty()) {
                continue;
            }
            Set<String> sessions = new LinkedHashSet<>();
            for (String id : evidence) {
                sessions.add(sessionOf.getOrDefault(id, "?" + id));
            }
            questions.add(new Question(q.get("id").asString(), q.get("question").asString(), evidence, sessions,
                    category(q.get("category")), q.has("answer") ? q.get("answer").asString() : ""));
            if (q.has("question_timestamp")) {
                Instant at = LocalDateTime.parse(q.get("question_timestamp").asString()).toInstant(ZoneOffset.UTC);
                asked = asked == null || at.isAfter(asked) ? at : asked;
            }
        }
        if (asked == null) {
            asked = turns.stream().map(Turn::createdAt).max(Instant::compareTo).orElseThrow().plusSeconds(60);
        }
        return new Conversation(dir.getFileName().toString(), turns, questions, Clock.fixed(asked, ZoneOffset.UTC));
    }

    /** The turns of {@code memories.jsonl}, in order. */
    static List<Turn> loadTurns(Path dir) throws IOException {
        List<Turn> turns = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("memories.jsonl"))) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode j = JSON.readTree(line);
            Instant at = LocalDateTime.parse(j.get("timestamp").asString()).toInstant(ZoneOffset.UTC);
            String session = j.has("session") ? j.get("session").asString() : "";
            String speaker = j.has("speaker") && !j.get("speaker").asString().isBlank() ? j.get("speaker").asString()
                    : null;
            turns.add(new Turn(j.get("id").asString(), j.get("text").asString(), at, session, speaker));
        }
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("no turns in " + dir.resolve("memories.jsonl"));
        }
        return turns;
    }

    /** A question's category as text: LoCoMo numbers them (1 to 5), LongMemEval names them ("multi-session"). */
    private static String category(JsonNode category) {
        return category.isNumber() ? Integer.toString(category.asInt()) : category.asString();
    }

    /** The general questions, read once. */
    private static final List<Question> GENERAL_QUESTIONS = readGeneralQuestions();

    /** The general questions, from {@code general-questions.txt} beside this class, as questions without evidence. */
    static List<Question> generalQuestions() {
        return GENERAL_QUESTIONS;
    }

    private static List<Question> readGeneralQuestions() {
        List<Question> questions = new ArrayList<>();
        for (String line : resourceLines("general-questions.txt")) {
            questions.add(new Question("general:" + (questions.size() + 1), line, Set.of(), Set.of(), GENERAL, ""));
        }
        return List.copyOf(questions);
    }

    /**
     * The lines of a text resource beside this class that are neither blank nor comments ({@code #}), stripped: the
     * question lists the benchmarks read.
     *
     * @throws IllegalStateException if the resource is not on the class path
     */
    static List<String> resourceLines(String resource) {
        try (InputStream in = EvalData.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).map(String::strip).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
