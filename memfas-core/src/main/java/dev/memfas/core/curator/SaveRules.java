package dev.memfas.core.curator;

import dev.memfas.policy.SavePolicy;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The curator's own save decisions, by rules, in this order: a utility tool's result is not kept (its name has a word
 * such as {@code date}, {@code time}, {@code now}, {@code calculate}, {@code ping}, {@code random}), nor a one-off
 * query's ({@code search}, {@code find}, {@code query}, {@code lookup}, {@code grep}), nor an error (a JSON object with
 * an {@code error} field, or text that begins with "error" or "exception"), nor one under {@value #MIN_CHARS} or over
 * {@value #MAX_CHARS} characters; anything else is kept under {@code tool/NAME}. Words of a tool's name are split at
 * case changes, digits and punctuation ({@code getCurrentDate}: get, current, date). Thread-safe.
 */
final class SaveRules implements SavePolicy {
    static final int MIN_CHARS = 20;
    static final int MAX_CHARS = 100_000;
    private static final Set<String> UTILITY = Set.of("date", "time", "now", "clock", "timestamp", "calculate",
            "calc", "math", "ping", "health", "echo", "random", "uuid", "sleep", "wait");
    private static final Set<String> QUERY = Set.of("search", "find", "query", "lookup", "grep");
    private static final Pattern WORD_BREAK = Pattern.compile("(?<=[a-z])(?=[A-Z])|[^A-Za-z]+");
    private static final Pattern ERROR_FIELD = Pattern.compile("^\\s*\\{\\s*\"error\"\\s*:");

    @Override
    public Decision decide(Offer offer) {
        Set<String> words = words(offer.toolName());
        if (words.stream().anyMatch(UTILITY::contains)) {
            return Decision.skip("a utility tool's result");
        }
        if (words.stream().anyMatch(QUERY::contains)) {
            return Decision.skip("a one-off query's result");
        }
        String result = offer.result().strip();
        String lower = result.toLowerCase(Locale.ROOT);
        if (ERROR_FIELD.matcher(result).find() || lower.startsWith("error") || lower.startsWith("exception")) {
            return Decision.skip("an error");
        }
        if (result.length() < MIN_CHARS) {
            return Decision.skip("under " + MIN_CHARS + " characters: too little to keep");
        }
        if (result.length() > MAX_CHARS) {
            return Decision.skip("over " + MAX_CHARS + " characters: too much for state");
        }
        return Decision.save("tool/" + offer.toolName(), "a tool's result worth keeping across sessions");
    }

    private static Set<String> words(String name) {
        Set<String> out = new HashSet<>();
        for (String w : WORD_BREAK.split(name)) {
            if (!w.isEmpty()) {
                out.add(w.toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }
}
