package dev.memfas;

import dev.memfas.internal.Checks;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * A keyword that, when it appears in a query as a whole word (case-insensitive), injects a hint and linked memories
 * ahead of the scored ones: the fast path for things an agent must never miss.
 *
 * <p>{@code Trigger.of("deploy", "Run the migrations before every deploy.")} fires on "Deploy now" but not on
 * "redeployment". A keyword may be several words ("release train"). Immutable.
 *
 * @param keyword the word or phrase to match; stripped, not blank, at most 200 chars, with a letter or digit
 * @param hint a short instruction injected when the trigger fires; may be empty if memories are linked
 * @param memoryIds ids of memories (in the trigger's namespace) injected when the trigger fires
 * @param namespace the namespace the trigger belongs to
 */
public record Trigger(String keyword, String hint, List<String> memoryIds, String namespace) {

    /**
     * Validates the components.
     *
     * @throws NullPointerException if a component or a memory id is null
     * @throws IllegalArgumentException if the keyword is blank, too long or has no letter or digit, or the trigger has
     *     neither a hint nor a linked memory
     */
    public Trigger {
        keyword = Checks.identifier(Objects.requireNonNull(keyword, "keyword").strip(), "trigger keyword", 200);
        if (keyword.codePoints().noneMatch(Character::isLetterOrDigit)) {
            throw new IllegalArgumentException("trigger keyword must contain a letter or digit: '" + keyword + "'");
        }
        Objects.requireNonNull(hint, "hint");
        hint = hint.strip();
        if (hint.length() > 10_000) {
            throw new IllegalArgumentException("trigger hint is too long: " + hint.length() + " chars (at most 10000)");
        }
        LinkedHashSet<String> ids = new LinkedHashSet<>();
        for (String id : Objects.requireNonNull(memoryIds, "memoryIds")) {
            ids.add(Checks.identifier(Objects.requireNonNull(id, "memory id"), "memory id", 512));
        }
        memoryIds = List.copyOf(ids);
        Checks.identifier(Objects.requireNonNull(namespace, "namespace"), "namespace", 128);
        if (hint.isEmpty() && memoryIds.isEmpty()) {
            throw new IllegalArgumentException("trigger '" + keyword + "' needs a hint or a linked memory");
        }
    }

    /** A trigger in the default namespace that injects a hint. */
    public static Trigger of(String keyword, String hint) {
        return new Trigger(keyword, hint, List.of(), Memory.DEFAULT_NAMESPACE);
    }

    /** A trigger in the default namespace that injects a hint and the given memories. */
    public static Trigger of(String keyword, String hint, String... memoryIds) {
        return new Trigger(keyword, hint, Arrays.asList(memoryIds), Memory.DEFAULT_NAMESPACE);
    }

    /** This trigger with the given linked memories. */
    public Trigger withMemoryIds(List<String> memoryIds) {
        return new Trigger(keyword, hint, memoryIds, namespace);
    }

    /** This trigger in the given namespace. */
    public Trigger inNamespace(String namespace) {
        return new Trigger(keyword, hint, memoryIds, namespace);
    }
}
