package dev.memfas.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;

/**
 * Three months of a team's daily logs, written for the demo around the hand-written sample set: the everyday noise an
 * agent's memory fills with (standups, reviews, small incidents, customer questions, upgrades, metrics), about the
 * same services and people as the notes that answer the demo's questions. Sending it all every turn is what memfas
 * saves. The same seed writes the same files.
 */
final class DemoCorpus {
    private static final List<String> SERVICES = List.of("billing-api", "usage-aggregator", "invoice-renderer",
            "auth-gateway", "ledger-writer", "notifications", "search-indexer", "tax-service");
    private static final List<String> PEOPLE = List.of("Maria", "Dev", "Sam", "Priya", "Aiko", "Jonas", "Tomás",
            "Lena");
    private static final List<String> TASKS = List.of("the proration rewrite", "pagination of the invoice list",
            "moving cron jobs to the scheduler", "the EU VAT report", "retry budgets for outbound webhooks",
            "the admin audit log", "SSO for the partner portal", "cleaning up old feature flags",
            "a faster CSV export", "the dunning email templates", "idempotency keys on the payments endpoint",
            "splitting the monolith's reporting module");
    private static final List<String> CAUSES = List.of("a config push with a typo in the pool size",
            "an expired TLS certificate on the internal load balancer", "a slow query after the index was dropped",
            "a noisy neighbour on the shared Redis", "a dependency that started rate limiting",
            "a disk filling up with debug logs", "a thread pool exhausted by a stuck downstream call");
    private static final List<String> FIXES = List.of("rolled the config back", "renewed the certificate and added"
            + " an expiry alert", "restored the index", "moved the cache to its own instance",
            "added a circuit breaker", "turned debug logging off and added a disk alert",
            "set a timeout of 2 seconds on the call");
    private static final List<String> REVIEWS = List.of("asked for a test of the empty case",
            "suggested a record instead of the mutable bean", "approved after the naming changes",
            "found an off-by-one in the page size", "asked to split it into two PRs",
            "wanted the magic number explained in a comment");
    private static final List<String> CUSTOMERS = List.of("Northwind", "Acme Retail", "Globex", "Initech",
            "Umbrella Health", "Stark Logistics", "Wayne Media");
    private static final List<String> QUESTIONS = List.of("why an invoice showed two line items for one seat",
            "how to export last year's invoices", "whether credit notes can be partial",
            "when the monthly usage report is generated", "how to change the billing contact",
            "why a card payment was retried three times");
    private static final List<String> LIBRARIES = List.of("Jackson", "Netty", "the PostgreSQL driver",
            "Spring Boot", "the Kafka client", "Micrometer", "Flyway", "JUnit");
    private static final List<String> LUNCH = List.of("Team lunch is moved to Thursday this week.",
            "The office is closed on Friday for the move to the fourth floor.",
            "Book club picked 'A Philosophy of Software Design' for next month.",
            "The coffee machine on the third floor is fixed.",
            "Hackathon ideas are collected on the wiki until the end of the month.");

    private DemoCorpus() {}

    /**
     * Writes one Markdown file per working day from {@code from} to {@code to} (inclusive) into {@code dir}.
     *
     * @return how many files were written
     */
    static int write(Path dir, LocalDate from, LocalDate to, long seed) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(seed);
        int files = 0;
        for (LocalDate day = from; !day.isAfter(to); day = day.plusDays(1)) {
            if (day.getDayOfWeek() == DayOfWeek.SATURDAY || day.getDayOfWeek() == DayOfWeek.SUNDAY) {
                continue;
            }
            StringBuilder log = new StringBuilder("# ").append(day).append("\n\n");
            int entries = 3 + random.nextInt(3);
            for (int i = 0; i < entries; i++) {
                log.append(entry(random, day)).append("\n\n");
            }
            Files.writeString(dir.resolve(day + ".md"), log.toString());
            files++;
        }
        return files;
    }

    private static String entry(Random r, LocalDate day) {
        String svc = pick(r, SERVICES);
        String person = pick(r, PEOPLE);
        return switch (r.nextInt(8)) {
            case 0 -> "## Standup\n" + person + " is working on " + pick(r, TASKS) + " in " + svc + "; "
                    + pick(r, PEOPLE) + " is reviewing " + pick(r, TASKS) + ". No blockers.";
            case 1 -> "## Incident: " + svc + "\n" + svc + " returned 5xx for " + (3 + r.nextInt(40))
                    + " minutes after " + pick(r, CAUSES) + ". " + person + " " + pick(r, FIXES)
                    + ". Postmortem in BILL-" + (1000 + r.nextInt(900)) + ".";
            case 2 -> "## Review\nReviewed " + person + "'s PR #" + (2000 + r.nextInt(3000)) + " on " + svc + ": "
                    + pick(r, REVIEWS) + ".";
            case 3 -> "## Customer\n" + pick(r, CUSTOMERS) + " asked " + pick(r, QUESTIONS) + "; " + person
                    + " answered and added it to the FAQ.";
            case 4 -> "## Upgrade\nUpgraded " + pick(r, LIBRARIES) + " in " + svc + "; " + (r.nextBoolean()
                    ? "no changes were needed." : "two deprecated calls had to be replaced.");
            case 5 -> "## Metrics\n" + svc + " p95 latency was " + (40 + r.nextInt(300)) + " ms this week (" + (r
                    .nextBoolean() ? "down" : "up") + " from " + (40 + r.nextInt(300)) + " ms); error rate "
                    + (r.nextInt(20) / 100.0) + "%.";
            case 6 -> "## Planning\nSprint " + (30 + day.getDayOfYear() / 14) + " planning: " + (20 + r.nextInt(25))
                    + " points committed, focus on " + pick(r, TASKS) + ". " + person + " is out "
                    + (1 + r.nextInt(4)) + " days next week.";
            default -> "## Office\n" + pick(r, LUNCH);
        };
    }

    private static <T> T pick(Random r, List<T> values) {
        return values.get(r.nextInt(values.size()));
    }
}
