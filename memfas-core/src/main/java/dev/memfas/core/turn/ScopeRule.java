package dev.memfas.core.turn;

import dev.memfas.ContextRequest;
import dev.memfas.Scope;
import dev.memfas.core.text.TextAnalyzer;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The scopes a turn may use and how closely each matches it, from the project, language and task its request names.
 *
 * <p>A rule, not a weight: when the request names its project, memories of another project are left out, and when it
 * names its language, memories of another language are (a wrong-language rule never outranks a matching universal
 * one, whatever its other factors). What is left ranks by specificity through the scope factor ({@link #match}):
 * <table>
 *   <caption>scope factor</caption>
 *   <tr><th>memory's scope</th><th>request names it</th><th>request names nothing</th></tr>
 *   <tr><td>{@code universal}</td><td colspan="2">0.4</td></tr>
 *   <tr><td>{@code language:L}</td><td>0.7</td><td>0.4</td></tr>
 *   <tr><td>{@code project:P}</td><td>0.9</td><td>0.4</td></tr>
 *   <tr><td>{@code project:P:task:T}</td><td>1.0 (the task matches), 0.6 (another task), 0.8 (no task
 *       given)</td><td>0.4</td></tr>
 * </table>
 * A task never excludes: a request's task is free text, and the task a memory names is matched against its words
 * ({@link #taskMatches}), which can miss. Immutable and thread-safe.
 *
 * @param project the request's project, or null
 * @param language the request's language, or null
 * @param taskWords the lower-cased words of the request's task, plus the task kind they name ({@link TaskKind}); empty
 *     without a task
 */
public record ScopeRule(String project, String language, Set<String> taskWords) {
    /** The rule of a turn that names nothing: every scope, universal and unknown ones alike at 0.4. */
    public static final ScopeRule ANY = new ScopeRule(null, null, Set.of());

    private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{N}_-]+");
    /** What each task word a memory's text has adds to its scope factor ({@link #match(Scope, String)}). */
    static final double TASK_WORD_LIFT = 0.1;

    public ScopeRule {
        taskWords = Set.copyOf(taskWords);
    }

    /** The rule of a request: its project and language, and the words of its task. */
    static ScopeRule of(ContextRequest request) {
        return of(request.project(), request.language(), request.task());
    }

    /** The rule for a project, a language and a task's text, each possibly null. */
    static ScopeRule of(String project, String language, String task) {
        if (project == null && language == null && task == null) {
            return ANY;
        }
        return new ScopeRule(project, language, taskWords(task));
    }

    /** Whether a memory of this scope may be used: not another project's or another language's. */
    boolean admits(Scope scope) {
        return switch (scope.type()) {
            case UNIVERSAL -> true;
            case LANGUAGE -> language == null || language.equals(scope.name());
            case PROJECT -> project == null || project.equals(scope.name());
        };
    }

    /** The scope factor of a memory of this scope (the table above); 0 for a scope the rule does not admit. */
    double match(Scope scope) {
        if (!admits(scope)) {
            return 0.0;
        }
        return switch (scope.type()) {
            case UNIVERSAL -> 0.4;
            case LANGUAGE -> language == null ? 0.4 : 0.7;
            case PROJECT -> {
                if (project == null) {
                    yield 0.4;
                }
                if (!scope.hasTask()) {
                    yield 0.9;
                }
                yield taskWords.isEmpty() ? 0.8 : taskMatches(scope.task()) ? 1.0 : 0.6;
            }
        };
    }

    /**
     * The scope factor of a memory of this scope and text: {@link #match(Scope)}, and for a memory that names no task,
     * when the request names one, raised by {@value #TASK_WORD_LIFT} for each of up to two of the task's words, or of
     * the words of the kind of task they name ({@link TaskKind}), that its text has as whole words (at most 1). So a
     * rule for the task that carries no task scope ("Write a failing test before fixing a bug" while the task is "fix
     * the failing login test") ranks above other universal ones (0.6 against 0.4), as a same-language rule would
     * (0.7); a task-scoped memory keeps the table's value, which its task already decides.
     */
    double match(Scope scope, String text) {
        double base = match(scope);
        if (base == 0 || taskWords.isEmpty() || scope.hasTask()) {
            return base;
        }
        TaskKind kind = TaskKind.of(taskWords);
        Set<String> found = new java.util.HashSet<>();
        for (String w : TextAnalyzer.words(text)) {
            if (taskWords.contains(w) || kind != null && kind.names(w)) {
                found.add(w);
                if (found.size() == 2) {
                    break;
                }
            }
        }
        return Math.min(1.0, base + TASK_WORD_LIFT * found.size());
    }

    /**
     * Whether a task scope's task is the request's: one of the request's task words, or the kind of task they name
     * ({@code project:hydra:task:debugging} matches the task "fix the failing login test").
     */
    boolean taskMatches(String task) {
        return taskWords.contains(task);
    }

    private static Set<String> taskWords(String task) {
        if (task == null || task.isBlank()) {
            return Set.of();
        }
        java.util.Set<String> words = new java.util.HashSet<>();
        for (String w : NON_WORD.split(task.toLowerCase(Locale.ROOT))) {
            if (!w.isEmpty()) {
                words.add(w);
            }
        }
        TaskKind kind = TaskKind.of(words);
        if (kind != null) {
            words.add(kind.id());
        }
        return words;
    }
}
