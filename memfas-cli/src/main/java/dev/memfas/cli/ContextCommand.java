package dev.memfas.cli;

import dev.memfas.ContextItem;
import dev.memfas.ContextLevel;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.ContextTier;
import dev.memfas.DroppedMemory;
import dev.memfas.Memory;
import dev.memfas.ScoreBreakdown;
import dev.memfas.spi.StoredMemory;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code memfas context QUERY}: the curated context, as an agent would get it; by default it changes nothing. */
@Command(name = "context", description = "Print the curated context for a query. Changes nothing unless --record.")
final class ContextCommand implements Callable<Integer> {
    private static final int MOST_DROPPED_SHOWN = 15;

    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "QUERY", description = "The user's message.")
    String query;

    @Option(names = "--session", paramLabel = "ID", description = "Session id (topic and hot memories).")
    String session;

    @Option(names = "--budget", paramLabel = "TOKENS", description = "Token budget (default 2000 or config).")
    Integer budget;

    @Option(names = "--project", paramLabel = "NAME", description = "The project you work in: memories of other"
            + " projects are left out.")
    String project;

    @Option(names = "--language", paramLabel = "NAME", description = "The language you work in: memories of other"
            + " languages are left out.")
    String language;

    @Option(names = "--task", paramLabel = "TEXT", description = "What you are doing (\"fix the failing login"
            + " test\"): memories scoped to that task rank first.")
    String task;

    @Option(names = "--detect", description = "Take the project (the git root's name, else the name in pom.xml,"
            + " package.json, pyproject.toml, Cargo.toml or go.mod) and the language (of most source files) from the"
            + " working directory; --project and --language win over it.")
    boolean detect;

    @Option(names = "--level", paramLabel = "LEVEL", description = "A named size: minimal (300 tokens), lean (800),"
            + " balanced (1500, also auto), rich (3000) or full (5000), each with its own minimum score and most"
            + " memories; --budget wins over its budget.")
    String level;

    @Option(names = "--tier", paramLabel = "TIER", description = "A named split of a whole prompt (minimal, standard,"
            + " optimal): the context gets its memory share.")
    String tier;

    @Option(names = "--state", paramLabel = "KEY", description = "A state key or glob the context may hold (repeat):"
            + " the keys named, and the relevant ones among those a glob matches.")
    List<String> state = new ArrayList<>();

    @Option(names = "--group-by-scope", description = "List the memories under one heading per scope, the most"
            + " specific first.")
    boolean groupByScope;

    @Option(names = "--explain", description = "Also print each included memory's scores and why each candidate"
            + " left out was dropped.")
    boolean explain;

    @Option(names = "--record", description = "Count the included memories as accessed, as an agent's turn does"
            + " (it ranks them higher later). Off by default: asking from the terminal changes nothing.")
    boolean record;

    @Option(names = "--json", description = "Print the context and its account as one JSON object.")
    boolean json;

    @Option(names = "--baseline", paramLabel = "TOKENS", description = "The tokens of the full history you would send"
            + " without memfas: the telemetry logs what the context saved against it.")
    Integer baseline;

    @CommandLine.Mixin
    PastOptions past = new PastOptions();

    @CommandLine.Mixin
    FilterOptions filters = new FilterOptions();

    @Override
    public Integer call() {
        if (budget != null && budget < 1) {
            throw new IllegalArgumentException("--budget must be positive: " + budget);
        }
        PrintWriter out = main.out();
        try (Workspace w = main.open(Workspace.Access.READ, true)) {
            if (w.store.count(main.namespace()) == 0) {
                Output.emptyStore(out, w.config.where());
                return Main.OK;
            }
            ContextRequest.Builder request = ContextRequest.builder(query).namespace(main.namespace()).recordAccess(record)
                    .explain(explain || json).includeSuperseded(past.includeSuperseded).asOf(past.asOf())
                    .task(task).groupByScope(groupByScope).filter(filters.orNull())
                    .state(state.toArray(String[]::new));
            if (level != null) {
                request.level(ContextLevel.parse(level));
            }
            if (tier != null) {
                request.tier(ContextTier.parse(tier));
            }
            if (detect) {
                ContextDetector.Detected here = ContextDetector.detect(Path.of("").toAbsolutePath());
                request.project(here.project()).language(here.language());
            }
            if (project != null) {
                request.project(project);
            }
            if (language != null) {
                request.language(language);
            }
            if (session != null) {
                request.sessionId(session);
            }
            if (budget != null) {
                request.tokenBudget(budget);
            }
            if (baseline != null) {
                request.baselineTokens(baseline);
            }
            // Loaded before the turn, not during it: the turn's latency in the telemetry is then the turn's, not the
            // second or more a model takes to load in each one-shot run.
            w.loadModel();
            ContextResponse r = w.curator.getContext(request.build());
            Map<String, StoredMemory> memories = read(w, main.namespace(), r);
            if (json) {
                Output.json(out, toJson(r, memories));
            } else {
                out.println(r.context());
                if (explain) {
                    explain(out, r, memories);
                }
            }
        }
        return Main.OK;
    }

    /** The included and dropped memories, read once for their dates and texts. */
    static Map<String, StoredMemory> read(Workspace w, String namespace, ContextResponse r) {
        List<String> ids = new ArrayList<>(r.memoryIds());
        r.dropped().forEach(d -> ids.add(d.memoryId()));
        Map<String, StoredMemory> byId = new HashMap<>();
        for (StoredMemory s : w.store.getAll(namespace, ids)) {
            byId.put(s.memory().id(), s);
        }
        return byId;
    }

    static void explain(PrintWriter out, ContextResponse r, Map<String, StoredMemory> memories) {
        out.println();
        out.printf(Locale.ROOT, "%d of %d tokens, %d memories scored, %d dropped, topic '%s'%s, %.1f ms%n",
                r.tokensUsed(), r.budget(), r.memoriesScored(), r.memoriesDropped(), r.topic(),
                r.topicShifted() ? " (shifted)" : "", r.latency().toNanos() / 1e6);
        if (!r.triggersMatched().isEmpty()) {
            out.println("triggers: " + String.join(", ", r.triggersMatched()));
        }
        out.println();
        out.println("included:");
        out.println(header("tokens"));
        for (ContextItem item : r.items()) {
            StoredMemory s = memories.get(item.memoryId());
            out.println(row(item.memoryId(), date(memories, item.memoryId()), item.score(), item.factors(),
                    Integer.toString(item.tokens()), item.section().name().toLowerCase(Locale.ROOT) + ", "
                            + item.layer().label() + (s != null && s.memory().pinned() ? ", pinned" : "")
                            + (item.truncated() ? ", cut to fit" : "")));
        }
        if (!r.dropped().isEmpty()) {
            out.println();
            out.println("dropped (best first):");
            out.printf(Locale.ROOT, "  %-22s %-10s %6s  %s%n", "id", "date", "score", "why");
            for (DroppedMemory d : r.dropped().subList(0, Math.min(MOST_DROPPED_SHOWN, r.dropped().size()))) {
                out.printf(Locale.ROOT, "  %-22s %-10s %6.3f  %s%n", Main.oneLine(d.memoryId(), 22),
                        date(memories, d.memoryId()), d.score(), reason(d));
            }
            if (r.dropped().size() > MOST_DROPPED_SHOWN) {
                out.println("  … and " + (r.dropped().size() - MOST_DROPPED_SHOWN) + " more");
            }
        }
        out.println();
        out.println("legend: score = the weighted sum of the factors, each in [0, 1] (see docs/scoring.md);");
        out.println("  sem semantic similarity, lex BM25 word match, rec recency, freq how often used, topic the"
                + " session's topic,");
        out.println("  scope where it applies, prio pinned or importance, hot used earlier in this session, nbr"
                + " stored next to a best match;");
        out.println("  dropped: below the minimum score, below the relative floor (a share of the best score:");
        out.println("  where relevance ends), a duplicate of an included memory, over budget, or every candidate");
        out.println("  below the embedding model's relevance floor, or below its meaning-alone floor with no word");
        out.println("  in common (the query matches nothing stored; see docs/embeddings.md).");
    }

    private static String reason(DroppedMemory d) {
        return switch (d.reason()) {
            case BELOW_MIN_SCORE -> "below the minimum score";
            case BELOW_RELATIVE_FLOOR -> "below the turn's relative floor";
            case DUPLICATE -> "duplicate of " + d.duplicateOf();
            case OVER_BUDGET -> "over budget";
            case OVER_ITEM_LIMIT -> "over the level's item limit";
            case NOT_CHOSEN_BY_JUDGE -> "not chosen by the relevance judge";
            case BELOW_RELEVANCE_FLOOR -> "nothing relevant (relevance floor)";
        };
    }

    private static String date(Map<String, StoredMemory> memories, String id) {
        StoredMemory s = memories.get(id);
        return s == null ? "-" : Output.day(s.memory().createdAt());
    }

    static String header(String last) {
        return String.format(Locale.ROOT, "  %-22s %-10s %6s %5s %5s %5s %5s %5s %5s %5s %5s %5s %6s", "id", "date",
                "score", "sem", "lex", "rec", "freq", "topic", "scope", "prio", "hot", "nbr", last);
    }

    static String row(String id, String date, double score, ScoreBreakdown f, String last, String note) {
        return String.format(Locale.ROOT,
                "  %-22s %-10s %6.3f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %5.2f %6s  %s",
                Main.oneLine(id, 22), date, score, f.semantic(), f.lexical(), f.recency(), f.frequency(), f.topic(),
                f.scope(), f.priority(), f.hot(), f.neighbor(), last, note);
    }

    private static Map<String, Object> toJson(ContextResponse r, Map<String, StoredMemory> memories) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("context", r.context());
        o.put("tokens_used", r.tokensUsed());
        o.put("token_budget", r.budget());
        o.put("memories_scored", r.memoriesScored());
        o.put("topic", r.topic());
        o.put("topic_shifted", r.topicShifted());
        o.put("topic_confidence", r.topicConfidence());
        o.put("triggers_matched", r.triggersMatched());
        List<Map<String, Object>> items = new ArrayList<>();
        for (ContextItem item : r.items()) {
            Map<String, Object> i = new LinkedHashMap<>();
            i.put("id", item.memoryId());
            i.put("created_at", created(memories, item.memoryId()));
            i.put("section", item.section().name().toLowerCase(Locale.ROOT));
            i.put("layer", item.layer().label());
            i.put("score", item.score());
            i.put("tokens", item.tokens());
            i.put("truncated", item.truncated());
            items.add(i);
        }
        o.put("items", items);
        List<Map<String, Object>> dropped = new ArrayList<>();
        for (DroppedMemory d : r.dropped()) {
            Map<String, Object> i = new LinkedHashMap<>();
            i.put("id", d.memoryId());
            i.put("created_at", created(memories, d.memoryId()));
            i.put("score", d.score());
            i.put("reason", d.reason().name().toLowerCase(Locale.ROOT));
            if (d.duplicateOf() != null) {
                i.put("duplicate_of", d.duplicateOf());
            }
            dropped.add(i);
        }
        o.put("dropped", dropped);
        return o;
    }

    private static String created(Map<String, StoredMemory> memories, String id) {
        StoredMemory s = memories.get(id);
        return s == null ? null : s.memory().createdAt().toString();
    }
}
