package dev.memfas.core.write;

import dev.memfas.Conversation;
import dev.memfas.Memory;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.policy.FactExtractor;
import dev.memfas.spi.LexicalHit;
import dev.memfas.spi.MemoryStore;
import dev.memfas.spi.StoredMemory;
import dev.memfas.telemetry.ExtractionTelemetry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers a conversation ({@link dev.memfas.Memories#remember(Conversation, boolean)}): each message as a memory of
 * kind {@value Conversation#TURN_KIND}, and the facts the curator's {@link FactExtractor} takes from them, each a
 * memory of its own that names the turns it came from. Turns and facts are written in one batch through the
 * {@link MemoryWriter}, so the curator's duplicate and supersession policies apply to them as to any write: a fact a
 * stored memory already says is not stored again, and one that updates a stored memory supersedes it when the policy
 * applies. A dry run computes the same and writes nothing. The extractor runs outside the writer's lock; one that
 * fails, or names a message the conversation does not have, is logged and the conversation is remembered without
 * facts. Each extraction, dry runs' too (a model's tokens are spent all the same), is reported with what it cost.
 *
 * <p>Given a timeout, the extractor runs in the background: the turns are written at once, and the facts are taken on
 * one thread of the writer's, a conversation at a time in the order remembered (so a later fact supersedes an earlier
 * one), each within the timeout, and written in a batch of their own. At most {@value #MOST_WAITING} conversations
 * wait; past that, a conversation is remembered without facts. Thread-safe.
 */
public final class ConversationWriter {
    private static final Logger LOG = LoggerFactory.getLogger(ConversationWriter.class);
    /** How many keyword hits are read to find a stored memory with a fact's text. */
    private static final int DUPLICATE_LOOKUP = 5;
    /** Conversations whose facts may wait for a background extractor: a few hours of a busy agent's sessions. */
    static final int MOST_WAITING = 1_000;

    private final MemoryWriter writer;
    private final MemoryStore store;
    private final FactExtractor extractor;
    private final Consumer<ExtractionTelemetry> told;
    private final Clock clock;
    /** Null: the extractor runs on the caller's thread. */
    private final Duration timeout;
    /** Runs the background extractions in order; null without a timeout. */
    private final ThreadPoolExecutor queue;
    /** Runs each extraction call, so that one can be given up when late; null without a timeout. */
    private final ExecutorService calls;

    /**
     * @param timeout how long the extractor may take, in the background; null to run it on the caller's thread
     * @param told takes what each extraction gave and cost
     */
    public ConversationWriter(MemoryWriter writer, MemoryStore store, FactExtractor extractor, Duration timeout,
            Consumer<ExtractionTelemetry> told, Clock clock) {
        this.writer = writer;
        this.store = store;
        this.extractor = extractor;
        this.timeout = timeout;
        this.told = told;
        this.clock = clock;
        this.queue = timeout == null ? null : new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(MOST_WAITING), daemon("memfas-facts"));
        this.calls = timeout == null ? null : Executors.newCachedThreadPool(daemon("memfas-fact-extractor"));
    }

    public Conversation.Remembered remember(Conversation c, boolean dryRun) {
        Instant now = clock.instant();
        List<Conversation.Message> messages = c.messages();
        List<Memory> turns = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            Conversation.Message m = messages.get(i);
            // Messages without a time keep their order: a microsecond apart, ending now.
            Instant at = m.at() != null ? m.at() : now.minusNanos(1_000L * (messages.size() - 1 - i));
            turns.add(Memory.builder(m.text()).id(MemoryIds.random()).namespace(c.namespace()).source(c.source())
                    .author(m.author()).kind(Conversation.TURN_KIND).createdAt(at).build());
        }
        if (queue != null && !dryRun) {
            List<Memory> stored = writer.rememberAll(turns, now);
            try {
                queue.execute(() -> writeFactsLater(c, stored));
                return new Conversation.Remembered(stored, List.of(), false, true);
            } catch (RejectedExecutionException e) {
                LOG.warn("{} conversations already wait for the fact extractor {}, or the curator is closing; the"
                        + " conversation from {} is remembered without facts", MOST_WAITING, extractor, c.source());
                return new Conversation.Remembered(stored, List.of(), false, false);
            }
        }
        List<Draft> drafts = drafts(c, turns, extract(c, turns.size()));
        List<Memory> factMemories = drafts.stream().map(Draft::memory).toList();
        if (dryRun) {
            List<String> updates = writer.wouldUpdate(factMemories, now);
            List<Conversation.Fact> facts = new ArrayList<>();
            for (int i = 0; i < drafts.size(); i++) {
                Draft d = drafts.get(i);
                String duplicate = storedWithText(c.namespace(), d.memory().text());
                facts.add(new Conversation.Fact(d.memory(), d.fromTurns(), duplicate,
                        duplicate == null ? updates.get(i) : null));
            }
            return new Conversation.Remembered(turns, facts, true, false);
        }
        Map<String, String> existing = new LinkedHashMap<>();
        for (Memory f : factMemories) {
            String duplicate = storedWithText(c.namespace(), f.text());
            if (duplicate != null) {
                existing.put(f.id(), duplicate);
            }
        }
        List<Memory> batch = new ArrayList<>(turns);
        for (Memory f : factMemories) {
            if (!existing.containsKey(f.id())) {
                batch.add(f);
            }
        }
        List<Memory> stored = writer.rememberAll(batch, now);
        List<Conversation.Fact> facts = new ArrayList<>();
        int next = turns.size();
        for (Draft d : drafts) {
            String duplicate = existing.get(d.memory().id());
            if (duplicate != null) {
                Memory kept = store.get(c.namespace(), duplicate).map(StoredMemory::memory).orElse(d.memory());
                facts.add(new Conversation.Fact(kept, d.fromTurns(), duplicate, null));
                continue;
            }
            Memory written = stored.get(next++);
            boolean same = !written.id().equals(d.memory().id());
            facts.add(new Conversation.Fact(written, d.fromTurns(), same ? written.id() : null,
                    same || written.supersedes().isEmpty() ? null : written.supersedes().get(0)));
        }
        return new Conversation.Remembered(stored.subList(0, turns.size()), facts, false, false);
    }

    /** Takes a conversation's facts in the background and writes those not already stored, naming the stored turns. */
    private void writeFactsLater(Conversation c, List<Memory> storedTurns) {
        List<Draft> drafts = drafts(c, storedTurns, extract(c, storedTurns.size()));
        List<Memory> fresh = new ArrayList<>();
        for (Draft d : drafts) {
            if (storedWithText(c.namespace(), d.memory().text()) == null) {
                fresh.add(d.memory());
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        try {
            writer.rememberAll(fresh, clock.instant());
        } catch (RuntimeException e) {
            LOG.warn("cannot write the {} facts taken from the conversation from {}", fresh.size(), c.source(), e);
        }
    }

    /**
     * Lets the conversations waiting for a background extractor have their facts, for at most the extractor's timeout
     * in all, then gives up the rest (logged). Writes stay possible while this runs: call it before the writer closes.
     */
    public void close() {
        if (queue == null) {
            return;
        }
        queue.shutdown();
        try {
            if (!queue.awaitTermination(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                LOG.warn("the curator closed before the fact extractor {} answered for {} conversations; they are"
                        + " remembered without facts", extractor, queue.getQueue().size() + 1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        queue.shutdownNow();
        calls.shutdownNow();
        try {
            // The extraction interrupted records its failure before the telemetry log closes.
            queue.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A fact's memory before it is written, and the ids of the turns it came from. */
    private record Draft(Memory memory, List<String> fromTurns) {}

    /**
     * The extractor's facts, none if it failed, was late or named a message the conversation lacks; reported with
     * what they cost.
     */
    private List<FactExtractor.Fact> extract(Conversation c, int turns) {
        long start = System.nanoTime();
        FactExtractor.Extraction taken = null;
        try {
            taken = timeout == null ? extractor.extractWithCost(c.messages()) : withinTimeout(c.messages());
        } catch (RuntimeException e) {
            LOG.warn("fact extractor {} failed; the conversation from {} is remembered without facts", extractor,
                    c.source(), e);
        }
        List<FactExtractor.Fact> facts = taken == null ? List.of() : taken.facts();
        boolean failed = taken == null;
        for (FactExtractor.Fact f : facts) {
            if (f.from().stream().anyMatch(i -> i < 0 || i >= turns)) {
                LOG.warn("fact extractor {} named a message outside the {} of a conversation ({}); it is remembered"
                        + " without facts", extractor, turns, f.from());
                facts = List.of();
                failed = true;
                break;
            }
        }
        told.accept(new ExtractionTelemetry(clock.instant(), c.namespace(), c.source(), turns, facts.size(),
                taken == null ? 0 : taken.inputTokens(), taken == null ? 0 : taken.outputTokens(),
                taken == null ? 0 : taken.cost(), Duration.ofNanos(System.nanoTime() - start), failed));
        return facts;
    }

    /** The extractor's answer on a thread of its own, given up when later than the timeout. */
    private FactExtractor.Extraction withinTimeout(List<Conversation.Message> messages) {
        Future<FactExtractor.Extraction> answer = calls.submit(() -> extractor.extractWithCost(messages));
        try {
            return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new IllegalStateException("took longer than " + timeout, e);
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /** The facts as memories, one per distinct text (the turns of repeats merged), naming the given turns. */
    private List<Draft> drafts(Conversation c, List<Memory> turns, List<FactExtractor.Fact> extracted) {
        Map<String, FactExtractor.Fact> byText = new LinkedHashMap<>();
        Map<String, Set<Integer>> from = new LinkedHashMap<>();
        for (FactExtractor.Fact f : extracted) {
            String key = NormalizedText.normalize(f.text());
            byText.putIfAbsent(key, f);
            from.computeIfAbsent(key, k -> new LinkedHashSet<>()).addAll(f.from());
        }
        List<Draft> drafts = new ArrayList<>();
        for (Map.Entry<String, FactExtractor.Fact> e : byText.entrySet()) {
            FactExtractor.Fact f = e.getValue();
            List<Integer> positions = new ArrayList<>(from.get(e.getKey()));
            positions.sort(null);
            List<String> ids = positions.stream().map(i -> turns.get(i).id()).toList();
            Memory last = turns.get(positions.get(positions.size() - 1));
            Set<String> authors = new LinkedHashSet<>();
            positions.forEach(i -> authors.add(turns.get(i).author()));
            Memory.Builder b = Memory.builder(f.text().strip()).id(MemoryIds.random()).namespace(c.namespace())
                    .source(c.source()).kind(f.kind()).createdAt(last.createdAt())
                    .metadata(Conversation.FROM_TURNS_KEY, String.join(",", ids));
            if (authors.size() == 1) {
                b.author(authors.iterator().next());
            }
            drafts.add(new Draft(b.build(), ids));
        }
        return drafts;
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** A live stored memory whose text is the same (normalized) as this one, or null. */
    private String storedWithText(String namespace, String text) {
        String normalized = NormalizedText.normalize(text);
        List<String> ids = new ArrayList<>();
        for (LexicalHit hit : store.searchLexical(namespace, text, DUPLICATE_LOOKUP)) {
            ids.add(hit.memoryId());
        }
        Instant now = clock.instant();
        for (StoredMemory s : store.getAll(namespace, ids)) {
            Memory m = s.memory();
            if (!m.isArchived() && !m.isSuperseded() && m.isValidAt(now)
                    && NormalizedText.normalize(m.text()).equals(normalized)) {
                return m.id();
            }
        }
        return null;
    }
}
