package dev.memfas.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The properties docs/spring-ai.md shows bind, each to what it says. */
final class DocumentedPropertiesTest {
    @Test
    void theDocumentedYaml_bindsToWhatItSays() throws Exception {
        String doc = Files.readString(Path.of("../docs/spring-ai.md"));
        Matcher yaml = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        assertThat(yaml.find()).as("docs/spring-ai.md has a yaml block").isTrue();
        Map<String, Object> flat = new LinkedHashMap<>();
        flatten("", new Load(LoadSettings.builder().build()).loadFromString(yaml.group(1)), flat);

        MemfasProperties p = new Binder(new MapConfigurationPropertySource(flat)).bind("memfas",
                MemfasProperties.class).get();

        assertThat(p.database()).isEqualTo(Path.of("/var/lib/shop/memfas.db"));
        assertThat(p.budget()).isEqualTo(1000);
        assertThat(p.model()).isEqualTo("bge-small-en-v1.5-q");
        assertThat(p.namespace()).isEqualTo("shop");
        assertThat(p.telemetry()).isEqualTo(Path.of("/var/log/shop/memfas-telemetry.jsonl"));
        assertThat(p.advisor()).isEqualTo(new MemfasProperties.Advisor(true, true, true));
        assertThat(flat).as("every documented key is a property").containsOnlyKeys("memfas.database",
                "memfas.budget", "memfas.model", "memfas.namespace", "memfas.telemetry", "memfas.advisor.enabled",
                "memfas.advisor.remember-exchanges", "memfas.advisor.report-usage");
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Object node, Map<String, Object> out) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(prefix.isEmpty() ? k.toString() : prefix + "." + k, v, out));
        } else {
            out.put(prefix, node);
        }
    }
}
