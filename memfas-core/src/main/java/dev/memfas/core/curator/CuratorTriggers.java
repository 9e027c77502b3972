package dev.memfas.core.curator;

import dev.memfas.ContextRequest;
import dev.memfas.Trigger;
import dev.memfas.Triggers;
import dev.memfas.core.write.MemoryWriter;
import dev.memfas.core.write.TriggerSuggester;
import java.util.List;
import java.util.Objects;

/**
 * The curator's {@link Triggers}: adding and removing go through the {@link MemoryWriter}, under its lock, so the
 * store and the compiled triggers change in the same order; suggestions come from the {@link TriggerSuggester}.
 * Thread-safe.
 */
final class CuratorTriggers implements Triggers {
    private final MemoryWriter writer;
    private final TriggerSuggester suggester;
    private final Runnable ensureOpen;

    CuratorTriggers(MemoryWriter writer, TriggerSuggester suggester, Runnable ensureOpen) {
        this.writer = writer;
        this.suggester = suggester;
        this.ensureOpen = ensureOpen;
    }

    @Override
    public void add(Trigger trigger) {
        Objects.requireNonNull(trigger, "trigger");
        ensureOpen.run();
        writer.addTrigger(trigger);
    }

    @Override
    public boolean remove(String namespace, String keyword) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(keyword, "keyword");
        ensureOpen.run();
        return writer.removeTrigger(namespace, keyword);
    }

    @Override
    public List<Triggers.Suggestion> suggest(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        ContextRequest.builder("suggest").namespace(namespace).build();
        ensureOpen.run();
        return suggester.suggestions(namespace);
    }
}
