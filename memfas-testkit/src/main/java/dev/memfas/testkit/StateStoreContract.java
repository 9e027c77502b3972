package dev.memfas.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StateStore;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link StateStore} must have. A store's test that extends {@link MemoryStoreContract} and keeps
 * state implements this interface too.
 */
public interface StateStoreContract {
    /** The store under test, open for the current test ({@link MemoryStoreContract#store()}). */
    MemoryStore store();

    /** The same store, as a keeper of state. */
    default StateStore stateStore() {
        return (StateStore) store();
    }

    @Test
    default void state_isKeptPerNamespace_andReplaced() {
        stateStore().saveState("a", "last_seen", "2026-11-01T00:00:00Z");
        stateStore().saveState("a", "last_seen", "2026-11-02T00:00:00Z");
        stateStore().saveState("b", "last_seen", "other");

        assertThat(stateStore().loadState("a", "last_seen")).hasValue("2026-11-02T00:00:00Z");
        assertThat(stateStore().loadState("b", "last_seen")).hasValue("other");
        assertThat(stateStore().loadState("a", "missing")).isEmpty();
        assertThat(stateStore().loadState("c", "last_seen")).isEmpty();
        assertThatThrownBy(() -> stateStore().saveState("a", " ", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("state key must be 1 to 512 chars and not blank: ' '");
    }

    @Test
    default void state_isListedWithItsTimeAndSize_searchedByGlob_deletedAndCleared() {
        Instant at = Instant.parse("2026-11-24T09:30:15.123456789Z");
        String longValue = "{\"notes\": \"" + "x".repeat(200) + "\"}";
        stateStore().saveState("a", "session/1/topic", "\"kafka\"", at);
        stateStore().saveState("a", "session/2/topic", "\"deploys\"", at.plusSeconds(60));
        stateStore().saveState("a", "budget", longValue, at);
        stateStore().saveState("a", "memfas.last_seen", "2026-11-01T00:00:00Z", at);
        stateStore().saveState("b", "session/1/topic", "\"other\"", at);

        List<dev.memfas.State.Entry> listed = stateStore().listState("a", true);
        assertThat(listed).extracting(dev.memfas.State.Entry::key)
                .containsExactly("budget", "memfas.last_seen", "session/1/topic", "session/2/topic");
        dev.memfas.State.Entry budget = listed.get(0);
        assertThat(budget.updatedAt()).isEqualTo(Instant.parse("2026-11-24T09:30:15Z"));
        assertThat(budget.size()).isEqualTo(longValue.length());
        assertThat(budget.preview()).isEqualTo(longValue.substring(0, dev.memfas.State.Entry.PREVIEW_CHARS));
        assertThat(stateStore().listState("a", false)).allMatch(e -> e.preview() == null);
        assertThat(stateStore().listState("a", false).get(3).updatedAt())
                .isEqualTo(Instant.parse("2026-11-24T09:31:15Z"));

        assertThat(stateStore().searchState("a", "session/*/topic", 10))
                .containsExactly(java.util.Map.entry("session/1/topic", "\"kafka\""),
                        java.util.Map.entry("session/2/topic", "\"deploys\""));
        assertThat(stateStore().searchState("a", "session/[2-9]/topic", 10)).containsOnlyKeys("session/2/topic");
        assertThat(stateStore().searchState("a", "session/?/topic", 1)).containsOnlyKeys("session/1/topic");
        assertThat(stateStore().searchState("a", "Session*", 10)).isEmpty();
        assertThat(stateStore().searchState("b", "*", 10)).containsOnlyKeys("session/1/topic");

        assertThat(stateStore().deleteState("a", "budget")).isTrue();
        assertThat(stateStore().deleteState("a", "budget")).isFalse();
        assertThat(stateStore().clearState("a", "memfas.")).isEqualTo(2);
        assertThat(stateStore().listState("a", false)).extracting(dev.memfas.State.Entry::key)
                .containsExactly("memfas.last_seen");
        assertThat(stateStore().clearState("a", null)).isEqualTo(1);
        assertThat(stateStore().listState("b", false)).hasSize(1);
    }

    @Test
    default void state_clearedButAPrefix_countsThePrefixInCharacters() {
        // 4 UTF-16 chars, 3 code points, 7 UTF-8 bytes: a store that measures the prefix in one unit and cuts keys in
        // another keeps or deletes the wrong keys.
        String prefix = "\uD83E\uDDE0\u00e9.";
        stateStore().saveState("a", prefix + "kept", "1");
        stateStore().saveState("a", prefix, "2");
        stateStore().saveState("a", "\uD83E\uDDE0x.gone", "3");
        stateStore().saveState("a", "\u00e9.gone", "4");

        assertThat(stateStore().clearState("a", prefix)).isEqualTo(2);
        assertThat(stateStore().listState("a", false)).extracting(dev.memfas.State.Entry::key)
                .containsExactlyInAnyOrder(prefix + "kept", prefix);
    }
}
