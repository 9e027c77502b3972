package dev.memfas.core.curator;

import dev.memfas.State;
import dev.memfas.core.text.JsonSyntax;
import dev.memfas.policy.SavePolicy;
import dev.memfas.spi.StateStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An agent's key-value state beside its memories ({@link dev.memfas.ContextCurator#state()}): JSON values under keys,
 * per namespace, dated on the curator's clock, and tools' results offered for saving ({@link Offers}). Keys beginning
 * with {@value #RESERVED_PREFIX} are the curator's own (when the namespace was last oriented, the turns reported
 * helpful): an agent can neither write, list, search, delete nor clear them. Thread-safe.
 */
final class StateKeys implements State, AutoCloseable {
    static final String RESERVED_PREFIX = "memfas.";
    /** The longest value, in chars: state is for what an agent must carry, not for documents. */
    static final int MAX_VALUE_CHARS = 1_000_000;
    /** The most keys one search returns. */
    static final int MAX_SEARCH = 1_000;

    private final StateStore store;
    private final Clock clock;
    private final Runnable ensureOpen;
    private final Offers offers;

    StateKeys(StateStore store, Clock clock, SavePolicy savePolicy, Duration savePolicyTimeout, Runnable ensureOpen) {
        this.store = store;
        this.clock = clock;
        this.ensureOpen = ensureOpen;
        this.offers = new Offers(store, this, savePolicy, savePolicyTimeout);
    }

    @Override
    public void save(String namespace, String key, String json) {
        ensureOpen.run();
        Objects.requireNonNull(namespace, "namespace");
        checkKey(key);
        Objects.requireNonNull(json, "json");
        if (json.length() > MAX_VALUE_CHARS) {
            throw new IllegalArgumentException("state value of '" + key + "' is too long: " + json.length()
                    + " chars (at most " + MAX_VALUE_CHARS + ")");
        }
        JsonSyntax.check(json, "state value of '" + key + "'");
        store.saveState(namespace, key, json, clock.instant());
    }

    @Override
    public Optional<String> load(String namespace, String key) {
        ensureOpen.run();
        Objects.requireNonNull(namespace, "namespace");
        checkKey(key);
        return store.loadState(namespace, key);
    }

    @Override
    public List<State.Entry> keys(String namespace, boolean includePreview) {
        ensureOpen.run();
        Objects.requireNonNull(namespace, "namespace");
        return store.listState(namespace, includePreview).stream()
                .filter(e -> !e.key().startsWith(RESERVED_PREFIX)).toList();
    }

    @Override
    public Map<String, String> search(String namespace, String glob, int limit) {
        ensureOpen.run();
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(glob, "glob");
        if (limit < 1 || limit > MAX_SEARCH) {
            throw new IllegalArgumentException("state search limit must be in [1, " + MAX_SEARCH + "]: " + limit);
        }
        // The curator's own keys are never shown; asking for one more page of them than could hide results.
        Map<String, String> found = new java.util.LinkedHashMap<>();
        store.searchState(namespace, glob, limit + reservedCount(store, namespace)).forEach((k, v) -> {
            if (!k.startsWith(RESERVED_PREFIX) && found.size() < limit) {
                found.put(k, v);
            }
        });
        return found;
    }

    @Override
    public boolean delete(String namespace, String key) {
        ensureOpen.run();
        Objects.requireNonNull(namespace, "namespace");
        checkKey(key);
        return store.deleteState(namespace, key);
    }

    @Override
    public int clear(String namespace) {
        ensureOpen.run();
        Objects.requireNonNull(namespace, "namespace");
        return store.clearState(namespace, RESERVED_PREFIX);
    }

    @Override
    public State.SaveOutcome offer(String namespace, String toolName, String result, String goal) {
        ensureOpen.run();
        return offers.offer(namespace, toolName, result, goal);
    }

    @Override
    public void close() {
        offers.close();
    }

    /**
     * How many of the curator's own keys a namespace holds (a handful): a search asks for that many more, so that
     * leaving them out cannot cut its results short.
     */
    static int reservedCount(StateStore store, String namespace) {
        return store.searchState(namespace, RESERVED_PREFIX + "*", MAX_SEARCH).size();
    }

    private static void checkKey(String key) {
        StateStore.checkStateKey(key);
        if (key.startsWith(RESERVED_PREFIX)) {
            throw new IllegalArgumentException("state keys beginning with '" + RESERVED_PREFIX
                    + "' are memfas's own: '" + key + "'");
        }
    }
}
