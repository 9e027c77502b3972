package dev.memfas.core.turn;

import java.util.Locale;
import java.util.Set;

/**
 * The kinds of task a request's free-text task is read as, by whole words: "fix the failing login test" is
 * debugging, "write the README" is documentation. A word must be the whole word ("test" does not match "latest");
 * the kind with the most words wins, ties going to the earlier kind.
 */
enum TaskKind {
    CODING(Set.of("coding", "code", "implement", "implementing", "implementation", "create",
            "add", "build", "function", "class", "feature")),
    DEBUGGING(Set.of("debugging", "debug", "fix", "fixing", "bug", "bugs", "error", "errors", "failing", "fails",
            "failure", "crash", "exception", "test", "tests")),
    DOCUMENTATION(Set.of("documentation", "document", "documenting", "doc", "docs", "readme", "comment", "comments",
            "javadoc", "explain")),
    ARCHITECTURE(Set.of("architecture", "design", "designing", "pattern", "patterns", "structure", "module",
            "modules", "refactor", "refactoring"));

    private final Set<String> words;

    TaskKind(Set<String> words) {
        this.words = words;
    }

    /** Whether the word is one of the kind's. */
    boolean names(String word) {
        return words.contains(word);
    }

    /** The kind's name as a task scope names it: {@code coding}, {@code debugging}, ... */
    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind the words name most, or null if they name none. */
    static TaskKind of(Set<String> taskWords) {
        TaskKind best = null;
        int bestCount = 0;
        for (TaskKind kind : values()) {
            int count = 0;
            for (String w : kind.words) {
                if (taskWords.contains(w)) {
                    count++;
                }
            }
            if (count > bestCount) {
                best = kind;
                bestCount = count;
            }
        }
        return best;
    }
}
