package dev.memfas.core.curator;

import dev.memfas.ContextRequest;
import dev.memfas.TimeService;
import dev.memfas.core.lifecycle.Consolidation;
import dev.memfas.core.lifecycle.EventHandler;
import dev.memfas.core.lifecycle.Maintenance;
import dev.memfas.core.lifecycle.Orienteer;
import dev.memfas.core.lifecycle.OtherProcesses;
import dev.memfas.core.lifecycle.UsageFeedback;
import dev.memfas.upkeep.AgentEvent;
import dev.memfas.upkeep.EventOutcome;
import dev.memfas.upkeep.MaintenanceReport;
import dev.memfas.upkeep.MaintenanceRequest;
import dev.memfas.upkeep.Orientation;
import dev.memfas.upkeep.SummarizeRequest;
import dev.memfas.upkeep.SummaryReport;
import dev.memfas.upkeep.Upkeep;
import dev.memfas.upkeep.UsageReport;
import java.time.Clock;
import java.time.ZoneId;
import java.util.Collection;
import java.util.Objects;

/**
 * The curator's {@link Upkeep}: checks each call, applies what other processes wrote where the call reads the
 * namespace whole ({@link OtherProcesses}), and hands it to the class that does the work: {@link Maintenance},
 * {@link Consolidation}, {@link Orienteer}, {@link EventHandler} or {@link UsageFeedback}. Thread-safe.
 */
final class CuratorUpkeep implements Upkeep {
    private final Maintenance maintenance;
    private final Consolidation consolidation;
    private final Orienteer orienteer;
    private final EventHandler events;
    private final UsageFeedback feedback;
    private final OtherProcesses others;
    private final Clock clock;
    private final Runnable ensureOpen;

    CuratorUpkeep(Maintenance maintenance, Consolidation consolidation, Orienteer orienteer, EventHandler events,
            UsageFeedback feedback, OtherProcesses others, Clock clock, Runnable ensureOpen) {
        this.maintenance = maintenance;
        this.consolidation = consolidation;
        this.orienteer = orienteer;
        this.events = events;
        this.feedback = feedback;
        this.others = others;
        this.clock = clock;
        this.ensureOpen = ensureOpen;
    }

    @Override
    public MaintenanceReport maintain(MaintenanceRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen.run();
        others.catchUp();
        return maintenance.run(request, clock.instant());
    }

    @Override
    public SummaryReport summarize(SummarizeRequest request) {
        Objects.requireNonNull(request, "request");
        ensureOpen.run();
        others.catchUp();
        return consolidation.run(request, clock.instant());
    }

    @Override
    public Orientation orient(String namespace, ZoneId zone) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(zone, "zone");
        // The request's check of the namespace is the one orientation needs.
        ContextRequest.builder("orient").namespace(namespace).build();
        ensureOpen.run();
        others.catchUp();
        return orienteer.orient(namespace, zone);
    }

    @Override
    public EventOutcome reportEvent(AgentEvent event) {
        Objects.requireNonNull(event, "event");
        ensureOpen.run();
        return events.handle(event);
    }

    @Override
    public UsageReport reportUsage(String namespace, String sessionId, Collection<String> memoryIds, boolean helpful) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(memoryIds, "memoryIds");
        ensureOpen.run();
        return feedback.report(namespace, sessionId, memoryIds, helpful);
    }

    @Override
    public TimeService time() {
        return TimeService.of(clock);
    }
}
