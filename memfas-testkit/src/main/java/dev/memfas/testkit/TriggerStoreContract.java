package dev.memfas.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.Trigger;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.TriggerStore;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link TriggerStore} must have. A store's test that extends {@link MemoryStoreContract} and keeps
 * triggers implements this interface too.
 */
public interface TriggerStoreContract {
    /** The store under test, open for the current test ({@link MemoryStoreContract#store()}). */
    MemoryStore store();

    /** The same store, as a keeper of triggers. */
    default TriggerStore triggerStore() {
        return (TriggerStore) store();
    }

    @Test
    default void triggers_putReplacesByKeywordIgnoringCase_removeAndListInOrder() {
        triggerStore().putTrigger(Trigger.of("deploy", "run migrations first"));
        triggerStore().putTrigger(Trigger.of("oncall", "page the SRE"));
        triggerStore().putTrigger(Trigger.of("DEPLOY", "run migrations, then smoke tests", "m1"));

        assertThat(triggerStore().triggers(Memory.DEFAULT_NAMESPACE))
                .extracting(Trigger::hint)
                .containsExactly("run migrations, then smoke tests", "page the SRE");
        assertThat(triggerStore().triggers(Memory.DEFAULT_NAMESPACE).get(0).memoryIds()).containsExactly("m1");
        assertThat(triggerStore().removeTrigger(Memory.DEFAULT_NAMESPACE, "Deploy")).isTrue();
        assertThat(triggerStore().removeTrigger(Memory.DEFAULT_NAMESPACE, "deploy")).isFalse();
        assertThat(triggerStore().triggers(Memory.DEFAULT_NAMESPACE)).extracting(Trigger::keyword)
                .containsExactly("oncall");
    }
}
