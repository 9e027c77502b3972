package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.Scope;
import dev.memfas.ScopeBudgets;
import dev.memfas.core.text.JTokkitTokenizer;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Scopes as rules in a turn: the Cerberus scenarios, and the wrong-scope rules that used to outrank universal ones. */
final class ScopesTest {
    private static final Instant NOW = Instant.parse("2026-11-24T09:00:00Z");
    private final ContextCurator curator = Memfas.newBuilder().embedder(new HashingEmbedder(64))
            .clock(new MutableClock(NOW)).build();

    @BeforeEach
    void rules() {
        curator.rememberAll(List.of(
                rule("u1", "Write a test for every bug fix before the fix", Scope.universal()),
                rule("u2", "Keep functions short and name them for what they return", Scope.universal()),
                rule("go1", "In Go, return errors as the last value and wrap them with %w", Scope.language("go")),
                rule("go2", "In Go, run gofmt and go vet before every commit", Scope.language("go")),
                rule("py1", "In Python, use type hints and run mypy before every commit", Scope.language("python")),
                rule("hydra1", "Hydra services log JSON lines and never print to stdout", Scope.project("hydra")),
                rule("hydra2", "Hydra's debugging: attach to the worker with dlv, not the gateway",
                        Scope.task("hydra", "debugging")),
                rule("cerb1", "Cerberus indexes with tree-sitter; run the index before every commit",
                        Scope.project("cerberus"))));
    }

    @AfterEach
    void close() {
        curator.close();
    }

    private static Memory rule(String id, String text, Scope scope) {
        return Memory.builder(text).id(id).kind("rule").scope(scope).createdAt(NOW.minusSeconds(3600)).build();
    }

    private ContextResponse turn(String query, String project, String language, String task) {
        return curator.getContext(ContextRequest.builder(query).sessionId("s").project(project).language(language)
                .task(task).tokenBudget(1500).build());
    }

    @Test
    void scenario1_nothingDetected_aQueryAboutNoScopedRule_getsTheUniversalRulesAndCorrections_withinFiveHundred() {
        try (ContextCurator c = Memfas.newBuilder().clock(new MutableClock(NOW)).build()) {
            c.rememberAll(List.of(
                    rule("r1", "Write a test for every bug fix before the fix", Scope.universal()),
                    rule("r2", "Keep every commit small enough to review in one sitting", Scope.universal()),
                    Memory.builder("No: commit messages say why, not what").id("c1").kind("correction")
                            .createdAt(NOW).build(),
                    rule("go1", "In Go, return errors as the last value and wrap them with %w", Scope.language("go")),
                    rule("hydra1", "Hydra services log JSON lines and never print to stdout",
                            Scope.project("hydra"))));

            ContextResponse r = c.getContext(ContextRequest.builder("how should I commit this fix").sessionId("s")
                    .task("coding").tokenBudget(500).build());

            // Nothing detected excludes no scope (detection can miss; the query decides), and nothing in the query
            // asks for the Go or Hydra rules: only the universal rules and the correction come.
            assertThat(r.memoryIds()).containsExactlyInAnyOrder("c1", "r1", "r2");
            assertThat(r.items()).allSatisfy(i -> assertThat(i.factors().scope()).isEqualTo(0.4));
            assertThat(r.tokensUsed()).isLessThanOrEqualTo(500);
        }
    }

    @Test
    void aTasksWords_liftAnOrdinaryMemoryThatNamesThem_notATaskScopedOne() {
        try (ContextCurator c = Memfas.newBuilder().clock(new MutableClock(NOW)).build()) {
            c.rememberAll(List.of(
                    rule("tests", "Run a failing test alone before fixing the code around it", Scope.universal()),
                    rule("bug", "Every bug fix needs a regression test", Scope.universal()),
                    rule("naming", "Name branches after the ticket they close", Scope.universal())));

            ContextResponse r = c.getContext(ContextRequest.builder("branches ticket test failing bug")
                    .sessionId("s").task("fix the failing login test").tokenBudget(500).build());

            // "failing" and "test" are the task's words; "bug" and "fix" its kind's (debugging): two words lift 0.2.
            assertThat(r.items()).filteredOn(i -> i.memoryId().equals("tests"))
                    .singleElement().satisfies(i -> assertThat(i.factors().scope()).isCloseTo(0.6,
                            org.assertj.core.api.Assertions.within(1e-9)));
            assertThat(r.items()).filteredOn(i -> i.memoryId().equals("bug"))
                    .singleElement().satisfies(i -> assertThat(i.factors().scope()).isCloseTo(0.6,
                            org.assertj.core.api.Assertions.within(1e-9)));
            assertThat(r.items()).filteredOn(i -> i.memoryId().equals("naming"))
                    .singleElement().satisfies(i -> assertThat(i.factors().scope()).isEqualTo(0.4));
        }
    }

    @Test
    void nothingDetected_everyScopeMayServe_noneFavoured() {
        ContextResponse r = turn("what should I do before every commit", null, null, "coding");

        assertThat(r.memoryIds()).contains("go2", "py1", "cerb1");
        assertThat(r.items()).allSatisfy(i -> assertThat(i.factors().scope()).isEqualTo(0.4));
    }

    @Test
    void scenario2_aGoProject_getsUniversalGoAndItsOwnRules_nothingElse() {
        ContextResponse r = turn("how do we handle errors and logging", "hydra", "go", "coding");

        assertThat(r.memoryIds()).contains("go1", "hydra1").doesNotContain("py1", "cerb1");
        assertThat(r.items()).extracting(ContextItem::memoryId)
                .allMatch(id -> id.startsWith("u") || id.startsWith("go") || id.startsWith("hydra"));
    }

    @Test
    void scenario4_wrongLanguageAndWrongProjectRules_areExcluded_notJustOutranked() {
        ContextResponse r = turn("what should I do before every commit", "cerberus", "python", "coding");

        assertThat(r.memoryIds()).contains("py1", "cerb1").doesNotContain("go1", "go2", "hydra1", "hydra2");
        // More specific ranks first among what matches: project 0.9 > language 0.7 > universal 0.4.
        assertThat(factor(r, "cerb1")).isEqualTo(0.9);
        assertThat(factor(r, "py1")).isEqualTo(0.7);
    }

    @Test
    void theTaskScope_ranksAboveTheProjects_whenTheTaskIsTheRequests() {
        ContextResponse debugging = turn("where do I attach the debugger", "hydra", "go",
                "fix the failing worker test");
        ContextResponse documenting = turn("where do I attach the debugger", "hydra", "go", "document the worker");

        assertThat(factor(debugging, "hydra2")).isEqualTo(1.0);
        assertThat(factor(documenting, "hydra2")).isEqualTo(0.6);
    }

    @Test
    void aPinnedMemory_ofAnotherLanguage_staysOut_too() {
        curator.remember(Memory.builder("In Go, vendor nothing").id("go3").scope(Scope.language("go")).pinned(true)
                .createdAt(NOW).build());

        ContextResponse go = turn("what should I do before every commit", "hydra", "go", null);
        ContextResponse python = turn("what should I do before every commit", "cerberus", "python", null);

        assertThat(go.memoryIds()).contains("go3");
        assertThat(python.memoryIds()).doesNotContain("go3");
    }

    @Test
    void recall_isUnscoped() {
        List<RecallHit> hits = curator
                .recall(RecallRequest.builder("before every commit").namespace("default").limit(10).build());

        assertThat(hits).extracting(h -> h.memory().id()).contains("go2", "py1", "cerb1");
    }

    // ---------------------------------------------------------------- scope budgets

    /** A store of {@code n} rules per scope, each about 60 tokens, all about commits: far more than a budget holds. */
    private static ContextCurator manyRules(int universal, int go, int hydra) {
        ContextCurator c = Memfas.newBuilder().clock(new MutableClock(NOW)).build();
        List<Memory> rules = new java.util.ArrayList<>();
        addRules(rules, "u", universal, Scope.universal());
        addRules(rules, "go", go, Scope.language("go"));
        addRules(rules, "hydra", hydra, Scope.project("hydra"));
        c.rememberAll(rules);
        return c;
    }

    private static void addRules(List<Memory> rules, String prefix, int n, Scope scope) {
        for (int i = 0; i < n; i++) {
            // Lower numbers match the query better: more of its words, said again.
            String words = "commit ".repeat(Math.max(1, 6 - i / 4)) + "rule " + prefix + " " + i + " "
                    + "keep the history readable and every change reviewed by someone who knows the code ".repeat(3);
            rules.add(Memory.builder(words).id(prefix + i).scope(scope).createdAt(NOW.minusSeconds(3600)).build());
        }
    }

    private static ContextResponse sharedTurn(ContextCurator c, ScopeBudgets shares) {
        ContextRequest.Builder request = ContextRequest.builder("commit rule").sessionId("s").project("hydra")
                .language("go").tokenBudget(1500).explain(true);
        if (shares != null) {
            request.scopeBudgets(shares);
        }
        return c.getContext(request.build());
    }

    private static int tokensOf(ContextResponse r, String prefix) {
        return r.items().stream().filter(i -> i.memoryId().startsWith(prefix)).mapToInt(ContextItem::tokens).sum();
    }

    @Test
    void scenario3_overTheBudget_eachScopeKeepsItsBestWithinItsShare_andTheWholeBudgetIsUsed() {
        try (ContextCurator c = manyRules(20, 20, 10)) {
            ContextResponse r = sharedTurn(c, ScopeBudgets.CERBERUS);

            // A share is filled first; the best left may then take what the rest of the budget holds, which is more
            // when items share a day's heading (these rules were all written the same day, and each is a line of
            // about 60 tokens under it, where a share charges it as the item it would be alone).
            assertThat(tokensOf(r, "u")).isLessThanOrEqualTo(700 + 200);
            assertThat(tokensOf(r, "go")).isPositive().isLessThanOrEqualTo(500 + 200);
            assertThat(tokensOf(r, "hydra")).isPositive().isLessThanOrEqualTo(300 + 200);
            assertThat(r.tokensUsed()).isGreaterThan(1500 - 70).isLessThanOrEqualTo(1500);
            // Within each scope, the best is kept: no memory left out outscores the scope's best included one.
            for (String prefix : List.of("u", "go", "hydra")) {
                double bestIn = r.items().stream().filter(i -> i.memoryId().matches(prefix + "\\d+"))
                        .mapToDouble(ContextItem::score).max().orElseThrow();
                assertThat(r.dropped()).filteredOn(d -> d.memoryId().matches(prefix + "\\d+"))
                        .allSatisfy(d -> assertThat(d.score()).as(d.memoryId()).isLessThanOrEqualTo(bestIn));
            }
        }
    }

    @Test
    void withoutShares_theBestFillTheBudgetWhateverTheirScope() {
        try (ContextCurator c = manyRules(20, 20, 10)) {
            ContextResponse plain = sharedTurn(c, null);
            ContextResponse shared = sharedTurn(c, ScopeBudgets.CERBERUS);

            assertThat(plain.memoryIds()).isNotEqualTo(shared.memoryIds());
            assertThat(tokensOf(shared, "u")).isLessThanOrEqualTo(770);
        }
    }

    @Test
    void aScopeWithLittleToSay_leavesItsShareToTheOthers() {
        try (ContextCurator c = manyRules(20, 20, 1)) {
            ContextResponse r = sharedTurn(c, ScopeBudgets.CERBERUS);

            assertThat(r.memoryIds()).contains("hydra0");
            assertThat(tokensOf(r, "hydra")).isLessThan(100);
            // The project's unused share went to the others: together they take more than their own shares.
            assertThat(tokensOf(r, "u") + tokensOf(r, "go")).isGreaterThan(700 + 500);
            assertThat(r.tokensUsed()).isGreaterThan(1500 - 70);
        }
    }

    @Test
    void theCuratorsDefaultShares_applyUnlessTheRequestNamesItsOwn() {
        try (ContextCurator c = Memfas.newBuilder().clock(new MutableClock(NOW))
                .scopeBudgets(new ScopeBudgets(0, 0, 1)).build()) {
            List<Memory> rules = new java.util.ArrayList<>();
            addRules(rules, "u", 20, Scope.universal());
            addRules(rules, "hydra", 3, Scope.project("hydra"));
            c.rememberAll(rules);

            ContextResponse byDefault = sharedTurn(c, null);
            ContextResponse own = sharedTurn(c, new ScopeBudgets(1, 0, 0));

            // All of the budget kept for the project: its three rules come first, then the rest fills up.
            assertThat(byDefault.memoryIds().subList(0, 3)).containsExactlyInAnyOrder("hydra0", "hydra1", "hydra2");
            assertThat(own.memoryIds().get(0)).isEqualTo("u0");
        }
    }

    @Test
    void scopeBudgets_badValues_areRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ScopeBudgets(-1, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("scope budgets must not be negative: universal -1, language 0, project 0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ScopeBudgets(0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("scope budgets must not all be 0");
        assertThat(ScopeBudgets.CERBERUS.share(Scope.Type.UNIVERSAL, 1500)).isEqualTo(700);
        assertThat(ScopeBudgets.CERBERUS.share(Scope.Type.PROJECT, 3000)).isEqualTo(600);
    }

    // ---------------------------------------------------------------- grouping by scope

    @Test
    void groupedByScope_theMostSpecificHeadingComesFirst_andTheItemsAreListedInContextOrder() {
        // Filled, so that every scope has a memory in: the order of the headings is the subject.
        ContextResponse r = curator.getContext(ContextRequest.builder("how do we handle errors and logging")
                .sessionId("s").project("hydra").language("go").task("debugging").groupByScope(true)
                .fillBudget(true).build());

        String context = r.context();
        int task = context.indexOf("<scope name=\"project:hydra:task:debugging\">");
        int project = context.indexOf("<scope name=\"project:hydra\">");
        int go = context.indexOf("<scope name=\"language:go\">");
        int universal = context.indexOf("<scope name=\"universal\">");
        assertThat(task).isPositive().isLessThan(project);
        assertThat(project).isLessThan(go);
        assertThat(go).isLessThan(universal);
        int last = -1;
        for (String id : r.memoryIds()) {
            int at = context.indexOf("<memory id=\"" + id + "\"");
            assertThat(at).as(id).isGreaterThan(last);
            last = at;
        }
        assertThat(r.tokensUsed()).isEqualTo(JTokkitTokenizer.cl100k().count(context));
    }

    @Test
    void aScopeNameCannotBreakTheHeading() {
        curator.remember(Memory.builder("Quoting errors and logging").id("q")
                .scope(Scope.project("a\"><x name=\"")).createdAt(NOW).build());

        ContextResponse r = curator.getContext(ContextRequest.builder("errors and logging").sessionId("s")
                .groupByScope(true).build());

        assertThat(r.context()).contains("<scope name=\"project:a&quot;&gt;&lt;x name=&quot;\">")
                .doesNotContain("<x name");
    }

    // ---------------------------------------------------------------- memoryContext

    @Test
    void memoryContext_listsWhatAppliesInAScope_mostSpecificFirst_neverAnotherProjectsOrLanguages() {
        List<String> hydra = ids(curator.memories().memoryContext("default", Scope.project("hydra"), null, 50));
        List<String> go = ids(curator.memories().memoryContext("default", Scope.language("go"), "rule", 50));
        List<String> debugging = ids(curator.memories()
                .memoryContext("default", Scope.task("hydra", "debugging"), null, 50));
        List<String> coding = ids(curator.memories().memoryContext("default", Scope.task("hydra", "coding"), null, 50));

        assertThat(hydra.subList(0, 2)).containsExactly("hydra2", "hydra1");
        assertThat(hydra).containsExactlyInAnyOrder("hydra2", "hydra1", "u1", "u2");
        assertThat(go).containsExactlyInAnyOrder("go1", "go2", "u1", "u2");
        assertThat(go.subList(2, 4)).containsExactlyInAnyOrder("u1", "u2");
        assertThat(debugging).startsWith("hydra2", "hydra1");
        assertThat(coding).doesNotContain("hydra2").contains("hydra1");
        assertThat(ids(curator.memories().memoryContext("default", Scope.universal(), "preference", 50))).isEmpty();
    }

    @Test
    void memoryContext_ranksTheRepeatedFirst_withinAScope_andKeepsToItsLimit() {
        curator.remember(Memory.builder("Squash before merging").kind("rule").createdAt(NOW.minusSeconds(60)).build());
        Memory repeated = curator.remember(Memory.builder("Squash before merging").kind("rule").build());

        List<String> universal = ids(curator.memories().memoryContext("default", Scope.universal(), "rule", 2));

        assertThat(universal).hasSize(2).startsWith(repeated.id());
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> curator.memories().memoryContext("default", Scope.universal(), null, 201))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("memory context limit must be in [1, 200]: 201");
    }

    private static List<String> ids(List<dev.memfas.spi.StoredMemory> memories) {
        return memories.stream().map(s -> s.memory().id()).toList();
    }

    private static double factor(ContextResponse r, String id) {
        return r.items().stream().filter(i -> i.memoryId().equals(id)).findFirst().orElseThrow().factors().scope();
    }
}
