package dev.memfas.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.Scope;
import dev.memfas.core.store.InMemoryMemoryStore;
import dev.memfas.upkeep.AgentEvent;
import dev.memfas.upkeep.EventOutcome;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Agent events: what each becomes, and similar past errors with their fixes. */
final class EventsTest {
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final ContextCurator curator = Memfas.newBuilder().store(store)
            .clock(new MutableClock(Instant.parse("2026-11-20T12:00:00Z"))).build();

    @AfterEach
    void close() {
        curator.close();
    }

    private static AgentEvent error(String text, Map<String, String> details) {
        return new AgentEvent(AgentEvent.Type.ERROR_OCCURRED, "default", "s1", text, details);
    }

    @Test
    void anError_isRemembered_andASimilarOneLaterComesBackWithItsFix() {
        EventOutcome first = curator.upkeep().reportEvent(error("NullPointerException in InvoiceParser at line 42",
                Map.of("fix", "guard the missing customer field")));
        curator.upkeep()
                .reportEvent(AgentEvent.of(AgentEvent.Type.DECISION_MADE, "Invoices without a customer are rejected"));

        assertThat(first.remembered().kind()).isEqualTo("error");
        assertThat(first.remembered().source()).isEqualTo("event");
        assertThat(first.remembered().metadata()).containsEntry("fix", "guard the missing customer field")
                .containsEntry("session", "s1");
        assertThat(first.similarErrors()).isEmpty();

        EventOutcome next = curator.upkeep()
                .reportEvent(error("NullPointerException in InvoiceParser at line 57", Map.of()));

        assertThat(next.similarErrors()).first().satisfies(p -> {
            assertThat(p.error().id()).isEqualTo(first.remembered().id());
            assertThat(p.fix()).isEqualTo("guard the missing customer field");
        });
        assertThat(next.similarErrors()).allSatisfy(p -> assertThat(p.error().kind()).isEqualTo("error"));
    }

    @Test
    void aRepeatedError_addsEvidence_andAFixReportedWithItIsKept() {
        EventOutcome first = curator.upkeep().reportEvent(error("Connection refused to ledger-db:5432", Map.of()));

        EventOutcome again = curator.upkeep().reportEvent(error("connection refused to ledger-db:5432",
                Map.of("fix", "start the database container first")));

        assertThat(again.remembered().id()).isEqualTo(first.remembered().id());
        assertThat(again.remembered().metadata()).containsEntry("fix", "start the database container first");
        assertThat(again.similarErrors()).extracting(p -> p.error().id()).contains(first.remembered().id());
        assertThat(store.get("default", first.remembered().id()).orElseThrow().evidenceCount()).isEqualTo(2);
    }

    @Test
    void decisionsAndFeedback_areRemembered_commandsAndFilesAreNot_andTheEndOfASessionDropsIt() {
        assertThat(curator.upkeep()
                .reportEvent(AgentEvent.of(AgentEvent.Type.USER_FEEDBACK, "Answer in British English"))
                .remembered().kind()).isEqualTo("feedback");
        assertThat(curator.upkeep().reportEvent(AgentEvent.of(AgentEvent.Type.COMMAND_EXECUTED, "./mvnw verify"))
                .remembered()).isNull();
        assertThat(curator.upkeep().reportEvent(AgentEvent.of(AgentEvent.Type.FILE_OPENED, "InvoiceParser.java"))
                .remembered()).isNull();
        assertThat(store.count("default")).isEqualTo(1);

        curator.getContext("what language do I answer in?", "s1");
        assertThat(curator.stats().activeSessions()).isEqualTo(1);
        curator.upkeep().reportEvent(new AgentEvent(AgentEvent.Type.SESSION_END, "default", "s1", "done", Map.of()));
        assertThat(curator.stats().activeSessions()).isZero();
    }

    @Test
    void anUnrelatedPastError_isNotOfferedAsSimilar() {
        curator.upkeep()
                .reportEvent(error("Connection refused to ledger-db:5432", Map.of("fix", "start the database")));

        EventOutcome other = curator.upkeep().reportEvent(error("NullPointerException in InvoiceParser", Map.of()));

        assertThat(other.similarErrors()).isEmpty();
    }

    @Test
    void errorsAndDecisions_goToTheProjectTheyNameALayer_elseGlobal() {
        Memory decision = curator.upkeep().reportEvent(new AgentEvent(AgentEvent.Type.DECISION_MADE, "default", null,
                "Hydra retries payments twice", Map.of("project", "hydra"))).remembered();
        Memory error = curator.upkeep().reportEvent(error("OutOfMemoryError in the report job", Map.of())).remembered();

        assertThat(decision.scope()).isEqualTo(Scope.project("hydra"));
        assertThat(Layer.of(decision)).isEqualTo(Layer.PROJECT);
        assertThat(Layer.of(error)).isEqualTo(Layer.GLOBAL);
    }

    @Test
    void aMalformedEvent_isRefused() {
        assertThatThrownBy(() -> AgentEvent.of(AgentEvent.Type.ERROR_OCCURRED, " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("event text must not be blank: ' '");
        assertThatThrownBy(() -> new AgentEvent(AgentEvent.Type.DECISION_MADE, "default", "s\n1", "x", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("session id must not contain");
        assertThat(store.count("default")).isZero();
    }
}
