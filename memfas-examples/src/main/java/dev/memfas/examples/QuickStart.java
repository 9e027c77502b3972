package dev.memfas.examples;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.Trigger;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Curates a context from a handful of memories and prints it, with the score breakdown of what was included. The
 * memories are embedded locally with the default model (bge-small-en-v1.5-q from the class path).
 *
 * <p>Run from the repository root: {@code ./mvnw -B -q -pl memfas-examples -am compile exec:java}.
 */
public final class QuickStart {
    private QuickStart() {}

    public static void main(String[] args) {
        run(System.out);
    }

    static void run(PrintStream out) {
        Instant now = Instant.now();
        try (DjlEmbedder embedder = DjlEmbedder.defaultModel();
                ContextCurator curator = Memfas.newBuilder()
                        .embedder(embedder)
                        .tokenBudget(300)
                        .recencyHalfLife(Duration.ofDays(14))
                        .build()) {
            curator.rememberAll(List.of(
                    Memory.builder("We chose PostgreSQL 16 for the billing service; SQLite stays for local tools.")
                            .id("decision-db").kind("decision").scope(Scope.project("billing"))
                            .source("MEMORY.md#Decisions").createdAt(now.minus(Duration.ofDays(20))).build(),
                    Memory.builder("Deploys go out on Tuesdays and Thursdays after the 10:00 stand-up.")
                            .id("deploy-days").kind("decision").source("MEMORY.md#Process")
                            .createdAt(now.minus(Duration.ofDays(40))).build(),
                    Memory.builder("Fixed the flaky invoice test: it depended on the machine's time zone; "
                                    + "tests now use a fixed Clock.")
                            .id("bug-invoice-tz").kind("bug_fix").scope(Scope.project("billing"))
                            .source("memory/2026-11-18.md").createdAt(now.minus(Duration.ofDays(4))).build(),
                    Memory.builder("Ana prefers short pull requests, one concern each, with the why in the title.")
                            .id("pref-prs").kind("preference").author("ana").source("notes/team.md")
                            .createdAt(now.minus(Duration.ofDays(60))).build(),
                    Memory.builder("Java services use records for value types and a builder as the only entry point.")
                            .id("pattern-java").kind("pattern").scope(Scope.language("java"))
                            .source("notes/style.md").createdAt(now.minus(Duration.ofDays(9))).build(),
                    Memory.builder("The billing database migrations run with Flyway before each deploy.")
                            .id("billing-migrations").kind("note").scope(Scope.project("billing"))
                            .source("memory/2026-11-20.md").createdAt(now.minus(Duration.ofDays(2))).build()));
            curator.triggers().add(Trigger.of("deploy", "Check that the Flyway migrations ran before deploying.",
                    "billing-migrations"));

            ContextResponse r = curator.getContext(ContextRequest.builder("Can we deploy the billing fix today?")
                    .sessionId("quickstart").project("billing").language("java").build());

            out.println(r.context());
            out.println();
            out.printf("%d of %d tokens, %d memories scored, %d dropped, triggers %s, topic '%s'%n",
                    r.tokensUsed(), r.budget(), r.memoriesScored(), r.memoriesDropped(), r.triggersMatched(),
                    r.topic());
            for (ContextItem item : r.items()) {
                out.printf("  %-20s %-9s score %.3f  semantic %.2f lexical %.2f recency %.2f scope %.2f%n",
                        item.memoryId(), item.section(), item.score(), item.factors().semantic(),
                        item.factors().lexical(), item.factors().recency(), item.factors().scope());
            }
        }
    }
}
