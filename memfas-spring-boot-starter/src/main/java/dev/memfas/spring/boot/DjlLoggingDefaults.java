package dev.memfas.spring.boot;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Keeps DJL's CUDA probe out of the application's console: on a machine with a CUDA runtime and no GPU driver, loading
 * the tokenizer logs a warning that it cannot count GPUs, which nothing in a memfas application can act on (memfas runs
 * on the CPU). Sets {@code logging.level.ai.djl.util.cuda} to {@code error} when the application has not set it.
 */
final class DjlLoggingDefaults implements EnvironmentPostProcessor {
    static final String PROPERTY = "logging.level.ai.djl.util.cuda";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        // Runs after the application's configuration is read, so its own setting is seen here and left alone.
        if (!environment.containsProperty(PROPERTY)) {
            environment.getPropertySources().addLast(new MapPropertySource("memfasLoggingDefaults",
                    Map.of(PROPERTY, "error")));
        }
    }
}
