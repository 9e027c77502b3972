package dev.memfas.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.ContextCurator;
import dev.memfas.spi.Embedder;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.springai.MemfasAdvisor;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/** The starter in a real Spring Boot application context, with a scripted chat model. */
final class MemfasAutoConfigurationTest {
    @TempDir
    Path dir;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        ScriptedModel chatModel() {
            return new ScriptedModel();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class AppWithItsOwnCurator {
        @Bean
        ContextCurator myCurator() {
            return Memfas.newBuilder().tokenBudget(123).build();
        }
    }

    private ConfigurableApplicationContext start(Class<?> app, String... properties) {
        return new SpringApplicationBuilder(app).web(WebApplicationType.NONE).properties(properties).run();
    }

    @Test
    void djlsCudaProbe_isQuietByDefault_andTheApplicationsOwnLevelWins() {
        try (ConfigurableApplicationContext quiet = start(App.class, "memfas.model=none",
                "memfas.database=" + dir.resolve("quiet.db"));
             ConfigurableApplicationContext own = start(App.class, "memfas.model=none",
                     "memfas.database=" + dir.resolve("own.db"), "logging.level.ai.djl.util.cuda=debug")) {
            assertThat(quiet.getEnvironment().getProperty("logging.level.ai.djl.util.cuda")).isEqualTo("error");
            assertThat(own.getEnvironment().getProperty("logging.level.ai.djl.util.cuda")).isEqualTo("debug");
        }
    }

    @Test
    void fromProperties_aCuratorAdvisorMetersAndHealth_andTheChatModelSeesTheCuratedBlock() {
        Path db = dir.resolve("data/memfas.db");
        ContextCurator curator;
        try (ConfigurableApplicationContext ctx = start(App.class, "memfas.database=" + db, "memfas.budget=300",
                "memfas.namespace=shop")) {
            curator = ctx.getBean(ContextCurator.class);
            assertThat(ctx.getBean(Embedder.class).modelId()).isEqualTo("bge-small-en-v1.5-q");
            curator.remember(Memory.builder("The staging database password rotates every 90 days.").namespace("shop")
                    .id("rotation").build());
            ScriptedModel model = ctx.getBean(ScriptedModel.class);
            ChatClient chat = ChatClient.builder(model).defaultAdvisors(ctx.getBean(MemfasAdvisor.class)).build();

            // Shares no word with the memory: only the real model's vectors find it.
            String answer = chat.prompt().user("How often do credentials change?")
                    .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "u1")).call().content();

            assertThat(answer).isEqualTo("Every 90 days [rotation].");
            String system = model.prompts.get(0).getSystemMessage().getText();
            assertThat(system).containsPattern("<memory id=\"rotation\"|\\n\\[rotation\\] ");
            assertThat(Memfas.defaultTokenizer().count(system)).isLessThanOrEqualTo(300);

            MeterRegistry meters = ctx.getBean(MeterRegistry.class);
            Timer turn = meters.get("memfas.turn").tag("namespace", "shop").timer();
            assertThat(turn.count()).isEqualTo(1);
            assertThat(meters.get("memfas.context.budget").summary().max()).isEqualTo(300);
            assertThat(meters.get("memfas.memories.included").summary().totalAmount()).isGreaterThanOrEqualTo(1);
            assertThat(meters.get("memfas.curate").tag("error", "none").timer().count()).isEqualTo(1);
            assertThat(meters.get("memfas.remember").tag("error", "none").timer().count()).isEqualTo(1);

            Health health = ctx.getBean("memfasHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("memories", 3L).containsEntry("embedder",
                    "bge-small-en-v1.5-q");

            // When memfas fails, the chat goes on; the failure is an observation's error and the health says so.
            curator.close();
            assertThat(chat.prompt().user("How often do credentials change?").call().content())
                    .isEqualTo("Every 90 days [rotation].");
            assertThat(meters.get("memfas.curate").tag("error", "IllegalStateException").timer().count())
                    .isEqualTo(1);
            assertThat(ctx.getBean("memfasHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.DOWN);
        }

        // What was remembered is in the file: a new application finds it.
        try (ConfigurableApplicationContext again = start(App.class, "memfas.database=" + db, "memfas.model=none")) {
            ContextCurator reopened = again.getBean(ContextCurator.class);
            assertThat(reopened.get("shop", "rotation")).isPresent();
            assertThat(reopened.stats().memories()).isEqualTo(3);
            assertThat(again.getBeansOfType(Embedder.class)).isEmpty();
        }
    }

    @Test
    void closingTheContext_closesTheCurator() {
        ContextCurator curator;
        try (ConfigurableApplicationContext ctx = start(App.class, "memfas.database=" + dir.resolve("c.db"),
                "memfas.model=none")) {
            curator = ctx.getBean(ContextCurator.class);
            assertThat(curator.stats().memories()).isZero();
        }
        assertThatThrownBy(curator::stats).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anApplicationsOwnCurator_isUsed_andTheAdvisorCanBeTurnedOff() {
        try (ConfigurableApplicationContext ctx = start(AppWithItsOwnCurator.class, "memfas.model=none")) {
            assertThat(ctx.getBeansOfType(ContextCurator.class)).containsOnlyKeys("myCurator");
            assertThat(ctx.getBeansOfType(MemfasAdvisor.class)).hasSize(1);
        }
        try (ConfigurableApplicationContext ctx = start(App.class, "memfas.model=none",
                "memfas.database=" + dir.resolve("o.db"), "memfas.advisor.enabled=false")) {
            assertThat(ctx.getBeansOfType(MemfasAdvisor.class)).isEmpty();
        }
    }

    @Test
    void anUnknownModel_failsAtStartup_namingTheProperty() {
        assertThatThrownBy(() -> start(App.class, "memfas.model=gpt-embeddings-9",
                "memfas.database=" + dir.resolve("m.db")))
                .rootCause().hasMessageContaining("memfas.model must be a built-in model id, none, or a directory")
                .hasMessageContaining("gpt-embeddings-9");
    }

    /** A chat model that keeps every prompt and always gives the same answer. */
    static final class ScriptedModel implements ChatModel {
        final List<Prompt> prompts = new CopyOnWriteArrayList<>();

        @Override
        public ChatResponse call(Prompt prompt) {
            prompts.add(prompt);
            return new ChatResponse(List.of(new Generation(new AssistantMessage("Every 90 days [rotation]."))));
        }
    }
}
