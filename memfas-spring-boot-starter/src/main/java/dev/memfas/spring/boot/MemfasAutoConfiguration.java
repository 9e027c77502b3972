package dev.memfas.spring.boot;

import dev.memfas.ContextCurator;
import dev.memfas.CuratorStats;
import dev.memfas.spi.Embedder;
import dev.memfas.spi.MemoryStore;
import dev.memfas.core.Memfas;
import dev.memfas.djl.DjlEmbedder;
import dev.memfas.micrometer.MemfasMeters;
import dev.memfas.springai.MemfasAdvisor;
import dev.memfas.sqlite.SqliteMemoryStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configures memfas in a Spring Boot application: a {@link ContextCurator} over a SQLite file with local
 * embeddings, from the {@code memfas.*} properties ({@link MemfasProperties}); a {@link MemfasAdvisor} for Spring AI's
 * chat client; the curator's turns as Micrometer meters and its advisor's steps as observations; and a health
 * indicator. Every bean backs off when the application defines its own.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"})
@EnableConfigurationProperties(MemfasProperties.class)
public class MemfasAutoConfiguration {

    /** The embedder the {@code memfas.model} property names, unless it is {@code none}. Closed with the context. */
    @Bean
    @ConditionalOnMissingBean(Embedder.class)
    @ConditionalOnExpression("!'${memfas.model:bge-small-en-v1.5-q}'.trim().equalsIgnoreCase('none')")
    public DjlEmbedder memfasEmbedder(MemfasProperties properties) {
        String model = properties.model().trim();
        Path directory = Path.of(model);
        if (Files.isDirectory(directory)) {
            return DjlEmbedder.builder().modelDirectory(directory).build();
        }
        try {
            return DjlEmbedder.builder().model(DjlEmbedder.BuiltInModel.forModelId(model)).build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("memfas.model must be a built-in model id, none, or a directory with"
                    + " model.onnx and tokenizer.json: '" + model + "' (" + e.getMessage() + ")");
        }
    }

    /**
     * The curator, over the application's {@link MemoryStore} bean if it has one, else the SQLite file of
     * {@code memfas.database}. Closing the context closes it, and with it the store.
     */
    @Bean
    @ConditionalOnMissingBean(ContextCurator.class)
    public ContextCurator memfasCurator(MemfasProperties properties, ObjectProvider<MemoryStore> store,
            ObjectProvider<Embedder> embedder, ObjectProvider<MemfasBuilderCustomizer> customizers) {
        Memfas.Builder b = Memfas.newBuilder().store(store.getIfAvailable(() -> openSqlite(properties.database())));
        Embedder e = embedder.getIfAvailable();
        if (e != null) {
            b.embedder(e);
        }
        if (properties.budget() != null) {
            b.tokenBudget(properties.budget());
        }
        if (properties.telemetry() != null) {
            b.telemetry(properties.telemetry());
        }
        customizers.orderedStream().forEach(c -> c.customize(b));
        return b.build();
    }

    private static MemoryStore openSqlite(Path database) {
        Path file = database.toAbsolutePath().normalize();
        try {
            Path dir = file.getParent();
            if (dir != null && !Files.isDirectory(dir)) {
                // The store holds every memory: a directory made for it is the owner's alone, as the file will be.
                if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                    Files.createDirectories(dir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                            java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
                } else {
                    Files.createDirectories(dir);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the directory of memfas.database " + file, e);
        }
        return SqliteMemoryStore.open(file);
    }

    /** The curator's turns as Micrometer meters ({@code memfas.turn}, {@code memfas.context.tokens}, …). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({MeterRegistry.class, MemfasMeters.class})
    static class Meters {
        @Bean
        @ConditionalOnBean(MeterRegistry.class)
        MemfasBuilderCustomizer memfasMeters(MeterRegistry registry) {
            return builder -> builder.telemetryListener(new MemfasMeters(registry));
        }
    }

    /** The advisor, when Spring AI's chat client is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.ai.chat.client.ChatClient")
    @ConditionalOnProperty(prefix = "memfas.advisor", name = "enabled", matchIfMissing = true)
    static class Advisor {
        @Bean
        @ConditionalOnMissingBean(MemfasAdvisor.class)
        MemfasAdvisor memfasAdvisor(ContextCurator curator, MemfasProperties properties,
                ObjectProvider<ObservationRegistry> observations) {
            MemfasAdvisor.Builder b = MemfasAdvisor.builder(curator).namespace(properties.namespace())
                    .rememberExchanges(properties.advisor().rememberExchanges())
                    .reportUsage(properties.advisor().reportUsage())
                    .observationRegistry(observations.getIfAvailable(() -> ObservationRegistry.NOOP));
            if (properties.budget() != null) {
                b.tokenBudget(properties.budget());
            }
            return b.build();
        }
    }

    /** {@code memfas} in the health endpoint: up with the curator's counts, down with the error when it fails. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class HealthCheck {
        @Bean
        @ConditionalOnMissingBean(name = "memfasHealthIndicator")
        HealthIndicator memfasHealthIndicator(ContextCurator curator) {
            return new AbstractHealthIndicator("memfas cannot read its store") {
                @Override
                protected void doHealthCheck(Health.Builder health) {
                    CuratorStats s = curator.stats();
                    health.up().withDetail("memories", s.memories()).withDetail("vectors", s.vectors())
                            .withDetail("turns", s.turns()).withDetail("activeSessions", s.activeSessions())
                            .withDetail("embedder", s.embedderModel().isEmpty() ? "none" : s.embedderModel());
                }
            };
        }
    }
}
