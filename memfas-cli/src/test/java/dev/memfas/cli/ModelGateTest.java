package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.Memory;
import dev.memfas.telemetry.TurnTelemetry;
import dev.memfas.core.Memfas;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

final class ModelGateTest {
    @Test
    void aCallDuringTheLoad_reachesTheCuratorOnlyOnceTheLoadHasSettled() throws Exception {
        List<TurnTelemetry> turns = new CopyOnWriteArrayList<>();
        CountDownLatch settled = new CountDownLatch(1);
        try (ContextCurator curator = Memfas.newBuilder().telemetryListener(turns::add).build()) {
            curator.remember(Memory.builder("Deploys go out on Tuesdays.").build());
            ContextCurator gated = ModelGate.waitingFor(curator, settled);

            CompletableFuture<ContextResponse> call = CompletableFuture.supplyAsync(() ->
                    gated.getContext(ContextRequest.builder("when do we deploy?").sessionId("s").build()));

            // The turn has not started: no telemetry, however long the load takes.
            assertThat(call).isNotDone();
            Thread.sleep(200);
            assertThat(turns).isEmpty();
            settled.countDown();
            assertThat(call.get(30, TimeUnit.SECONDS).context()).contains("Tuesdays");
            assertThat(turns).hasSize(1);
        }
    }

    @Test
    void theCuratorsExceptions_passThroughUnwrapped() {
        CountDownLatch settled = new CountDownLatch(0);
        try (ContextCurator curator = Memfas.newBuilder().build()) {
            ContextCurator gated = ModelGate.waitingFor(curator, settled);

            assertThatThrownBy(() -> gated.memories().supersede("missing", Memory.builder("x").build()))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(gated.toString()).startsWith("ModelGate[");
        }
    }
}
