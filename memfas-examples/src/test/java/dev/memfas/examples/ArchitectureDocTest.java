package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/architecture.md} walks one {@code getContext} step by step, linking each step to its class: the links
 * must lead to classes that exist, and the steps must be the calls {@code MemoryCurator.getContext} makes, in the order
 * it makes them.
 */
final class ArchitectureDocTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path CORE = ROOT.resolve("memfas-core/src/main/java/dev/memfas/core");

    @Test
    void theTurnInTheDocs_isTheTurnInTheCode_inTheSameOrder() throws Exception {
        String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
        int from = doc.indexOf("## One turn of `getContext`");
        int to = doc.indexOf("\n## ", from + 1);
        assertThat(from).as("the section on one turn").isNotNegative();
        String section = doc.substring(from, to < 0 ? doc.length() : to);
        List<String> documented = new ArrayList<>();
        Matcher link = Pattern.compile(
                "\\]\\((\\.\\./memfas-core/src/main/java/dev/memfas/core/(?:\\w+/)?(\\w+)\\.java)\\)")
                .matcher(section);
        while (link.find()) {
            assertThat(ROOT.resolve("docs").resolve(link.group(1)).normalize()).as("link %s", link.group(1)).exists();
            if (!documented.contains(link.group(2))) {
                documented.add(link.group(2));
            }
        }

        // The classes of memfas-core, by simple name: the turn's steps are in several of its packages.
        Map<String, Path> classes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(CORE)) {
            files.filter(f -> f.toString().endsWith(".java"))
                    .forEach(f -> classes.put(f.getFileName().toString().replace(".java", ""), f));
        }
        String curator = Files.readString(classes.get("MemoryCurator"));
        // The step objects the curator holds: field name to class.
        Map<String, String> steps = new TreeMap<>();
        Matcher field = Pattern.compile("private final (\\w+) (\\w+);").matcher(curator);
        while (field.find()) {
            steps.put(field.group(2), field.group(1));
        }
        int start = curator.indexOf("public ContextResponse getContext(ContextRequest request)");
        String body = curator.substring(start, curator.indexOf("\n    }\n", start));
        // The classes the turn calls, in the order of their first call.
        TreeMap<Integer, String> calls = new TreeMap<>();
        Matcher call = Pattern.compile("\\b(\\w+)\\.(\\w+)\\(").matcher(body);
        while (call.find()) {
            String receiver = call.group(1);
            String type = steps.containsKey(receiver) ? steps.get(receiver)
                    : Character.isUpperCase(receiver.charAt(0)) ? receiver : null;
            if (type != null && classes.containsKey(type) && !calls.containsValue(type)) {
                calls.put(call.start(), type);
            }
        }
        List<String> called = new ArrayList<>(new LinkedHashSet<>(calls.values()));
        assertThat(called).as("steps of getContext").hasSizeGreaterThanOrEqualTo(8);
        List<String> documentedCalls = documented.stream().filter(called::contains).toList();
        assertThat(documentedCalls).as("the documented steps, in order").isEqualTo(called);
    }
}
