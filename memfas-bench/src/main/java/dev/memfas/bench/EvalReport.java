package dev.memfas.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.json.JsonMapper;

/** The evaluation's results per system and budget, as the Markdown table and the JSON file {@link EvalMain} writes. */
final class EvalReport {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private EvalReport() {}

    /** LoCoMo's categories: 1 to 4 have answers in the conversation, 5 is adversarial. */
    private static final Set<String> NUMBERED = Set.of("1", "2", "3", "4", "5");

    /**
     * Aggregates for one system at one budget. With LoCoMo's numbered categories the main recall is over 1 to 4 and
     * {@code byCategory} is indexed by number; with named categories (LongMemEval) it is over every question and
     * {@code named} holds each category's recall.
     */
    record Row(double recall14, double[] byCategory, double cat5, Map<String, Double> named, double allShare,
            double meanTokens, double p50, double p95, int questions) {}

    /** Whether every category is one of LoCoMo's numbers. */
    static boolean numbered(List<EvalMain.Outcome> outcomes) {
        return outcomes.stream().allMatch(o -> NUMBERED.contains(o.category()));
    }

    /** The categories, in order of name. */
    static List<String> categories(List<EvalMain.Outcome> outcomes) {
        return new TreeSet<>(outcomes.stream().map(EvalMain.Outcome::category).toList()).stream().toList();
    }

    static Row row(List<EvalMain.Outcome> outcomes, String system, int budget) {
        List<EvalMain.Outcome> mine = outcomes.stream().filter(o -> o.system().equals(system) && o.budget() == budget)
                .toList();
        boolean numbered = numbered(outcomes);
        List<EvalMain.Outcome> main = numbered ? mine.stream().filter(o -> !o.category().equals("5")).toList() : mine;
        double[] byCategory = new double[5];
        for (int c = 1; c <= 4; c++) {
            byCategory[c] = recall(mine, Integer.toString(c));
        }
        double cat5 = recall(mine, "5");
        Map<String, Double> named = new LinkedHashMap<>();
        for (String category : categories(outcomes)) {
            named.put(category, recall(mine, category));
        }
        double[] latencies = main.stream().mapToDouble(EvalMain.Outcome::millis).sorted().toArray();
        return new Row(main.stream().mapToDouble(EvalMain.Outcome::recall).average().orElse(Double.NaN), byCategory, cat5,
                named, main.stream().filter(EvalMain.Outcome::all).count() / (double) Math.max(1, main.size()),
                main.stream().mapToInt(EvalMain.Outcome::tokens).average().orElse(0), percentile(latencies, 50),
                percentile(latencies, 95), main.size());
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

    static String markdown(List<EvalMain.Outcome> outcomes, List<String> systems, int[] budgets, String model,
            int conversations) {
        if (!numbered(outcomes)) {
            return namedMarkdown(outcomes, systems, budgets, model, conversations);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Evidence recall, %d conversations, model %s, %d questions with evidence"
                + " in categories 1-4%n%n", conversations, model, row(outcomes, "memfas", budgets[0]).questions()));
        sb.append("| system | budget | recall 1-4 | cat 1 | cat 2 | cat 3 | cat 4 | cat 5 | all evidence | mean tokens"
                + " | p50 ms | p95 ms |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (String system : systems) {
            for (int budget : budgets) {
                Row r = row(outcomes, system, budget);
                sb.append(String.format(Locale.ROOT,
                        "| %s | %d | **%.3f** | %s | %s | %s | %s | %s | %.3f | %.0f | %.2f | %.2f |%n", system, budget,
                        r.recall14(), f(r.byCategory()[1]), f(r.byCategory()[2]), f(r.byCategory()[3]),
                        f(r.byCategory()[4]), f(r.cat5()), r.allShare(), r.meanTokens(), r.p50(), r.p95()));
            }
        }
        return sb.toString();
    }

    /** The table for named categories: the recall over every question, then one column per category. */
    private static String namedMarkdown(List<EvalMain.Outcome> outcomes, List<String> systems, int[] budgets,
            String model, int conversations) {
        List<String> categories = categories(outcomes);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Evidence recall, %d conversations, model %s, %d questions with evidence%n%n",
                conversations, model, row(outcomes, "memfas", budgets[0]).questions()));
        sb.append("| system | budget | recall |");
        categories.forEach(c -> sb.append(' ').append(c).append(" |"));
        sb.append(" all evidence | mean tokens | p50 ms | p95 ms |\n|---|---|---|");
        categories.forEach(c -> sb.append("---|"));
        sb.append("---|---|---|---|\n");
        for (String system : systems) {
            for (int budget : budgets) {
                Row r = row(outcomes, system, budget);
                sb.append(String.format(Locale.ROOT, "| %s | %d | **%.3f** |", system, budget, r.recall14()));
                categories.forEach(c -> sb.append(' ').append(f(r.named().get(c))).append(" |"));
                sb.append(String.format(Locale.ROOT, " %.3f | %.0f | %.2f | %.2f |%n", r.allShare(), r.meanTokens(),
                        r.p50(), r.p95()));
            }
        }
        return sb.toString();
    }

    private static String f(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.3f", v);
    }

    static String json(List<EvalMain.Outcome> outcomes, List<String> systems, int[] budgets, String model,
            List<Path> conversations) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("model", model);
        root.put("conversations", conversations.stream().map(p -> p.getFileName().toString()).toList());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String system : systems) {
            for (int budget : budgets) {
                Row r = row(outcomes, system, budget);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("system", system);
                m.put("budget", budget);
                m.put("questions", r.questions());
                m.put(numbered(outcomes) ? "recall_cat1_4" : "recall", nan(r.recall14()));
                Map<String, Object> cats = new LinkedHashMap<>();
                for (int c = 1; c <= 4; c++) {
                    cats.put(Integer.toString(c), nan(r.byCategory()[c]));
                }
                if (!numbered(outcomes)) {
                    cats = new LinkedHashMap<>();
                    for (Map.Entry<String, Double> e : r.named().entrySet()) {
                        cats.put(e.getKey(), nan(e.getValue()));
                    }
                }
                m.put("recall_by_category", cats);
                if (numbered(outcomes)) {
                    m.put("recall_cat5", nan(r.cat5()));
                }
                m.put("all_evidence_share", r.allShare());
                m.put("mean_tokens", r.meanTokens());
                m.put("latency_ms_p50", nan(r.p50()));
                m.put("latency_ms_p95", nan(r.p95()));
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
