package dev.memfas.bench;

import dev.memfas.ContextItem;
import dev.memfas.ContextResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.json.JsonMapper;

/**
 * The evaluation's results per system and budget, as the Markdown tables and the JSON file {@link EvalMain} writes:
 * evidence recall on the answerable questions, session recall of each system's ranking, the share of the budget
 * filled for general questions no conversation answers, and how much of the answer the evidence writes out the context
 * shows ({@link ShownAnswer}).
 */
final class EvalReport {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** LoCoMo's categories: 1 to 4 have answers in the conversation, 5 is adversarial. */
    private static final Set<String> NUMBERED = Set.of("1", "2", "3", "4", "5");

    private final List<EvalMain.Outcome> answerable;
    private final List<EvalMain.Outcome> general;
    private final List<EvalMain.SessionOutcome> sessions;
    private final List<String> systems;
    private final int[] budgets;
    private final String model;
    private final int conversations;
    private final EvalHistory history;
    private final boolean numbered;
    private final List<String> categories;

    EvalReport(EvalMain.Results results, List<String> systems, int[] budgets, String model, int conversations,
            EvalHistory history) {
        this.answerable = results.outcomes().stream().filter(EvalMain.Outcome::answerable).toList();
        this.general = results.outcomes().stream().filter(o -> !o.answerable()).toList();
        this.sessions = results.sessions();
        this.systems = List.copyOf(systems);
        this.budgets = budgets.clone();
        this.model = model;
        this.conversations = conversations;
        this.history = history;
        this.numbered = answerable.stream().allMatch(o -> NUMBERED.contains(o.category()));
        this.categories = new TreeSet<>(answerable.stream().map(EvalMain.Outcome::category).toList()).stream()
                .toList();
    }

    /**
     * Aggregates for one system at one budget. With LoCoMo's numbered categories the main recall is over 1 to 4 and
     * {@code byCategory} is indexed by number; with named categories (LongMemEval) it is over every question and
     * {@code named} holds each category's recall. {@code generalFill} is the mean share of the budget the general
     * questions filled, {@code generalEmpty} the share of them answered with an empty context, {@code shown} the mean
     * share of the answer's words the context shows, over the {@code withAnswer} questions whose evidence writes out
     * some.
     */
    record Row(double recall14, double[] byCategory, double cat5, Map<String, Double> named, double allShare,
            double meanTokens, double p50, double p95, int questions, double generalFill, double generalEmpty,
            double shown, int withAnswer) {}

    /** Session recall of one system: an evidence session among its first 5 and 10 distinct sessions. */
    record SessionRow(double at5, double at10, int questions) {}

    Row row(String system, int budget) {
        List<EvalMain.Outcome> mine = answerable.stream()
                .filter(o -> o.system().equals(system) && o.budget() == budget).toList();
        List<EvalMain.Outcome> main = numbered ? mine.stream().filter(o -> !o.category().equals("5")).toList() : mine;
        double[] byCategory = new double[5];
        for (int c = 1; c <= 4; c++) {
            byCategory[c] = recall(mine, Integer.toString(c));
        }
        Map<String, Double> named = new LinkedHashMap<>();
        for (String category : categories) {
            named.put(category, recall(mine, category));
        }
        double[] latencies = main.stream().mapToDouble(EvalMain.Outcome::millis).sorted().toArray();
        List<EvalMain.Outcome> asked = general.stream().filter(o -> o.system().equals(system) && o.budget() == budget)
                .toList();
        List<EvalMain.Outcome> withAnswer = main.stream().filter(o -> o.shown() != null).toList();
        return new Row(main.stream().mapToDouble(EvalMain.Outcome::recall).average().orElse(Double.NaN), byCategory,
                recall(mine, "5"), named,
                main.stream().filter(EvalMain.Outcome::all).count() / (double) Math.max(1, main.size()),
                main.stream().mapToInt(EvalMain.Outcome::tokens).average().orElse(0), percentile(latencies, 50),
                percentile(latencies, 95), main.size(),
                asked.stream().mapToDouble(o -> o.tokens() / (double) budget).average().orElse(Double.NaN),
                asked.stream().filter(o -> o.tokens() == 0).count() / (double) Math.max(1, asked.size()),
                withAnswer.isEmpty() ? Double.NaN
                        : withAnswer.stream().mapToDouble(EvalMain.Outcome::shown).average().orElse(Double.NaN),
                withAnswer.size());
    }

    SessionRow sessionRow(String system) {
        List<EvalMain.SessionOutcome> mine = sessions.stream()
                .filter(s -> s.system().equals(system) && !(numbered && s.category().equals("5"))).toList();
        return new SessionRow(mine.stream().filter(EvalMain.SessionOutcome::at5).count() / (double) mine.size(),
                mine.stream().filter(EvalMain.SessionOutcome::at10).count() / (double) mine.size(), mine.size());
    }

    private static double recall(List<EvalMain.Outcome> outcomes, String category) {
        return outcomes.stream().filter(o -> o.category().equals(category)).mapToDouble(EvalMain.Outcome::recall)
                .average().orElse(Double.NaN);
    }

    private static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    String markdown() {
        StringBuilder sb = new StringBuilder(numbered ? numberedRecall() : namedRecall());
        sb.append(String.format(Locale.ROOT, "%nSession recall: an evidence session among the first 5 and 10 distinct"
                + " sessions of a system's ranking (%d questions)%n%n| system | sessions @5 | sessions @10 |%n"
                + "|---|---|---|%n", sessionRow("memfas").questions()));
        for (String system : systems) {
            SessionRow r = sessionRow(system);
            if (r.questions() > 0) {
                sb.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f |%n", system, r.at5(), r.at10()));
            }
        }
        long asked = general.stream().filter(o -> o.system().equals("memfas") && o.budget() == budgets[0]).count();
        sb.append(String.format(Locale.ROOT, "%nPrecision: %d general questions no conversation answers, asked of"
                + " each; the mean share of the budget filled and the share of empty contexts%n%n| system |",
                asked / Math.max(1, conversations)));
        appendBudgetColumns(sb, "fill ", "empty");
        for (String system : systems) {
            sb.append("| ").append(system).append(" |");
            double empty = 0;
            for (int budget : budgets) {
                Row r = row(system, budget);
                sb.append(String.format(Locale.ROOT, " %.3f |", r.generalFill()));
                empty += r.generalEmpty() / budgets.length;
            }
            sb.append(String.format(Locale.ROOT, " %.3f |%n", empty));
        }
        sb.append(String.format(Locale.ROOT, "%nAnswer shown: the mean share of the answer's words (those its evidence"
                + " writes out; %d questions) that the context shows%n%n| system |",
                row("memfas", budgets[0]).withAnswer()));
        appendBudgetColumns(sb, "", null);
        for (String system : systems) {
            sb.append("| ").append(system).append(" |");
            for (int budget : budgets) {
                sb.append(' ').append(f(row(system, budget).shown())).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * The rest of a table's heading after {@code "| system |"}: a column per budget, named {@code prefix} and the
     * budget, then a column named {@code last} unless it is null; and the line under it.
     */
    private void appendBudgetColumns(StringBuilder sb, String prefix, String last) {
        for (int budget : budgets) {
            sb.append(' ').append(prefix).append(budget).append(" |");
        }
        if (last != null) {
            sb.append(' ').append(last).append(" |");
        }
        sb.append("\n|---|").append("---|".repeat(budgets.length + (last == null ? 0 : 1))).append('\n');
    }

    private String numberedRecall() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Evidence recall, %d conversations, model %s, %d questions with evidence"
                + " in categories 1-4%s%n%n", conversations, model, row("memfas", budgets[0]).questions(), asked()));
        sb.append("| system | budget | recall 1-4 | cat 1 | cat 2 | cat 3 | cat 4 | cat 5 | all evidence | mean tokens"
                + " | p50 ms | p95 ms |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (String system : systems) {
            for (int budget : budgets) {
                Row r = row(system, budget);
                sb.append(String.format(Locale.ROOT,
                        "| %s | %d | **%.3f** | %s | %s | %s | %s | %s | %.3f | %.0f | %.2f | %.2f |%n", system, budget,
                        r.recall14(), f(r.byCategory()[1]), f(r.byCategory()[2]), f(r.byCategory()[3]),
                        f(r.byCategory()[4]), f(r.cat5()), r.allShare(), r.meanTokens(), r.p50(), r.p95()));
            }
        }
        return sb.toString();
    }

    /** The table for named categories: the recall over every question, then one column per category. */
    private String namedRecall() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Evidence recall, %d conversations, model %s, %d questions with evidence%s"
                + "%n%n", conversations, model, row("memfas", budgets[0]).questions(), asked()));
        sb.append("| system | budget | recall |");
        categories.forEach(c -> sb.append(' ').append(c).append(" |"));
        sb.append(" all evidence | mean tokens | p50 ms | p95 ms |\n|---|---|---|");
        categories.forEach(c -> sb.append("---|"));
        sb.append("---|---|---|---|\n");
        for (String system : systems) {
            for (int budget : budgets) {
                Row r = row(system, budget);
                sb.append(String.format(Locale.ROOT, "| %s | %d | **%.3f** |", system, budget, r.recall14()));
                categories.forEach(c -> sb.append(' ').append(f(r.named().get(c))).append(" |"));
                sb.append(String.format(Locale.ROOT, " %.3f | %.0f | %.2f | %.2f |%n", r.allShare(), r.meanTokens(),
                        r.p50(), r.p95()));
            }
        }
        return sb.toString();
    }

    /** What the questions were asked with, for a table's heading; empty when with nothing. */
    private String asked() {
        return switch (history) {
            case NONE -> "";
            case PREVIOUS -> ", each asked with the previous question as recent history";
            case FOLLOW_UP -> ", each asked as a follow-up (\"" + EvalHistory.FOLLOW_UP_QUERY
                    + "\" with the question as recent history; rrf and dense read the question)";
            case FOLLOW_UP_PREVIOUS -> ", each asked as a follow-up (\"" + EvalHistory.FOLLOW_UP_QUERY
                    + "\" with the previous question and the question as recent history; rrf and dense read the"
                    + " question)";
            case PRONOUN -> ", each naming one speaker asked after \"Let's talk about NAME.\" with the name read as"
                    + " \"they\" (rrf and dense read the question)";
            case FOLLOW_UP_SESSION -> ", each asked, then followed in the same session by \""
                    + EvalHistory.FOLLOW_UP_QUERY + "\" without history (rrf and dense read the question)";
            case PRONOUN_SESSION -> ", each naming one speaker asked after \"Let's talk about NAME.\" in the same"
                    + " session, without history, with the name read as \"they\" (rrf and dense read the question)";
        };
    }

    private static String f(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.3f", v);
    }

    /** One JSON line per answerable question whose evidence a system at a budget did not all find. */
    static String misses(List<EvalMain.Outcome> outcomes) {
        StringBuilder sb = new StringBuilder();
        for (EvalMain.Outcome o : outcomes) {
            if (o.answerable() && !o.missing().isEmpty()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("system", o.system());
                m.put("budget", o.budget());
                m.put("question", o.question());
                m.put("category", o.category());
                m.put("recall", o.recall());
                m.put("missing", o.missing());
                sb.append(JSON.writeValueAsString(m)).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * One filled context of an answerable question as a JSON line: the question, its category and evidence, the
     * budget, the tokens used, and its items in context order (the turn's id, score, tokens, whether cut, whether
     * evidence).
     */
    static String filledLine(EvalData.Question q, int budget, ContextResponse filled, Map<String, String> turnId) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("question", q.id());
        m.put("category", q.category());
        m.put("budget", budget);
        m.put("tokens", filled.tokensUsed());
        m.put("evidence", q.evidence());
        List<Map<String, Object>> items = new ArrayList<>();
        for (ContextItem item : filled.items()) {
            String id = turnId.getOrDefault(item.memoryId(), item.memoryId());
            Map<String, Object> i = new LinkedHashMap<>();
            i.put("id", id);
            i.put("score", item.score());
            i.put("semantic", item.factors().semantic());
            i.put("lexical", item.factors().lexical());
            i.put("tokens", item.tokens());
            i.put("cut", item.truncated());
            i.put("evidence", q.evidence().contains(id));
            items.add(i);
        }
        m.put("items", items);
        return JSON.writeValueAsString(m);
    }

    String json(List<Path> conversationDirs) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("model", model);
        root.put("history", history.option());
        root.put("conversations", conversationDirs.stream().map(p -> p.getFileName().toString()).toList());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String system : systems) {
            SessionRow s = sessionRow(system);
            for (int budget : budgets) {
                Row r = row(system, budget);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("system", system);
                m.put("budget", budget);
                m.put("questions", r.questions());
                m.put(numbered ? "recall_cat1_4" : "recall", nan(r.recall14()));
                Map<String, Object> cats = new LinkedHashMap<>();
                if (numbered) {
                    for (int c = 1; c <= 4; c++) {
                        cats.put(Integer.toString(c), nan(r.byCategory()[c]));
                    }
                } else {
                    r.named().forEach((k, v) -> cats.put(k, nan(v)));
                }
                m.put("recall_by_category", cats);
                if (numbered) {
                    m.put("recall_cat5", nan(r.cat5()));
                }
                m.put("all_evidence_share", r.allShare());
                m.put("mean_tokens", r.meanTokens());
                m.put("latency_ms_p50", nan(r.p50()));
                m.put("latency_ms_p95", nan(r.p95()));
                m.put("general_fill", nan(r.generalFill()));
                m.put("general_empty_share", nan(r.generalEmpty()));
                m.put("answer_shown", nan(r.shown()));
                m.put("answer_shown_questions", r.withAnswer());
                m.put("session_recall_at5", s.questions() == 0 ? null : s.at5());
                m.put("session_recall_at10", s.questions() == 0 ? null : s.at10());
                rows.add(m);
            }
        }
        root.put("results", rows);
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }

    private static Object nan(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
