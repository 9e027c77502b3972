package dev.memfas.sql.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.Trigger;
import dev.memfas.spi.Embeddings;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.SharedStore;
import dev.memfas.spi.SharedStore.Kind;
import dev.memfas.spi.StateStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.spi.TokenCountStore;
import dev.memfas.spi.TokenCountStore.TokenCount;
import dev.memfas.spi.TriggerStore;
import dev.memfas.spi.VectorSpace;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/**
 * What the SQL stores' fixtures of an earlier schema hold, and the check that a store reads it all back: a memory
 * replaced (one version kept) with text no JDBC text column would keep, vectors, counters, an archived memory,
 * triggers, state and token counts in two namespaces. Each store's fixture was written by {@link #write} as the
 * store was then; its test opens the fixture with the store as it is now and runs {@link #assertWritten}.
 */
public final class PreviousContent {
    private static final Instant T = Instant.parse("2026-11-01T09:30:00.123456789Z");
    private static final String TEXT = "We deploy on Thursdays now \u0000 \ud83e\udde0 lone \ud800.";

    private PreviousContent() {}

    /** Writes the content into an empty store. */
    public static <S extends MemoryStore & StateStore & TriggerStore & TokenCountStore> void write(S store) {
        VectorSpace space = new VectorSpace("fixture-model", 2);
        Memory first = Memory.builder("We deploy on Tuesdays.").id("deploy").namespace("team").source("notes.md")
                .kind("decision").tags("ops", "release").author("ana").createdAt(T).build();
        store.upsertAll(List.of(first), Embeddings.of(space, List.of(new float[] {0.6f, 0.8f})));
        store.upsertAll(List.of(second()), Embeddings.of(space, List.of(new float[] {0.8f, 0.6f})));
        Memory old = Memory.builder("The old staging host is gone.").id("staging").namespace("team")
                .source("chat").createdAt(T).build();
        Memory other = Memory.builder("Lunch is at noon.").id("lunch").namespace("other").source("chat")
                .createdAt(T).build();
        store.upsertAll(List.of(old, other));
        store.recordAccess("team", List.of("deploy", "deploy"), T.plusSeconds(120));
        store.recordEvidence("team", List.of("deploy"));
        store.archive("team", List.of("staging"), T.plusSeconds(180));
        store.putTrigger(new Trigger("Deploy", "see the deploy decision", List.of("deploy"), "team"));
        store.putTrigger(new Trigger("lunch", "when we eat", List.of("lunch"), "other"));
        store.saveState("team", "plan", "{\"step\": 2}", T.plusSeconds(240));
        store.saveState("team", "task/current", "ship 0.1.0", T.plusSeconds(300));
        store.putTokenCounts("cl100k", List.of(new TokenCount(second(), 17)));
    }

    private static Memory second() {
        return Memory.builder(TEXT).id("deploy").namespace("team").source("notes.md").kind("decision")
                .tags("ops", "release").author("ana").createdAt(T.plusSeconds(60))
                .metadata(Map.of("file", "notes.md", "odd", "50% \u001f \u001e")).scope(Scope.language("java"))
                .pinned(true).importance(0.75).validFrom(T.plusSeconds(60)).validUntil(T.plusSeconds(86_400)).build();
    }

    /** Checks the store holds what {@link #write} wrote. */
    public static <S extends MemoryStore & StateStore & TriggerStore & TokenCountStore & SharedStore> void
            assertWritten(S store) {
        assertThat(store.namespaces()).containsExactlyInAnyOrder("team", "other");
        StoredMemory deploy = store.getAll("team", List.of("deploy")).get(0);
        Memory m = deploy.memory();
        assertThat(m.text()).isEqualTo(TEXT);
        assertThat(m.tags()).containsExactly("ops", "release");
        assertThat(m.metadata()).isEqualTo(Map.of("file", "notes.md", "odd", "50% \u001f \u001e"));
        assertThat(m.scope()).isEqualTo(Scope.language("java"));
        assertThat(m.createdAt()).isEqualTo(T.plusSeconds(60));
        assertThat(m.validUntil()).isEqualTo(T.plusSeconds(86_400));
        assertThat(m.pinned()).isTrue();
        assertThat(m.importance()).isEqualTo(0.75);
        assertThat(deploy.accessCount()).isEqualTo(2);
        // Access times are kept to the microsecond.
        assertThat(deploy.lastAccessedAt()).isEqualTo(T.plusSeconds(120).truncatedTo(ChronoUnit.MICROS));
        assertThat(deploy.evidenceCount()).as("1 when written, 1 recorded").isEqualTo(2);
        assertThat(store.versions("team", "deploy")).extracting(Memory::text).contains("We deploy on Tuesdays.");
        assertThat(store.getAll("team", List.of("staging")).get(0).memory().archivedAt())
                .isEqualTo(T.plusSeconds(180));
        assertThat(store.vectorSpace()).contains(new VectorSpace("fixture-model", 2));
        assertThat(store.vectors("team", List.of("deploy")).get("deploy")).containsExactly(0.8f, 0.6f);
        assertThat(store.searchLexical("team", "thursdays", 5)).extracting(LexicalHit::memoryId)
                .containsExactly("deploy");
        assertThat(store.searchLexical("other", "lunch noon thursdays", 5)).extracting(LexicalHit::memoryId)
                .containsExactly("lunch");
        assertThat(store.triggers("team")).containsExactly(
                new Trigger("Deploy", "see the deploy decision", List.of("deploy"), "team"));
        assertThat(store.triggers("other")).extracting(Trigger::keyword).containsExactly("lunch");
        assertThat(store.loadState("team", "plan")).contains("{\"step\": 2}");
        assertThat(store.searchState("team", "task/*", 10)).isEqualTo(Map.of("task/current", "ship 0.1.0"));
        assertThat(store.tokenCounts("team", "cl100k", List.of("deploy", "staging"))).isEqualTo(Map.of("deploy", 17));
        assertThat(store.changesSince(0, 100).changes()).extracting(c -> c.kind())
                .contains(Kind.MEMORY, Kind.TRIGGERS);
    }
}
