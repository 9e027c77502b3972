package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.core.Memfas;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BinaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java code in README.md and docs/ compiles against the current API, and the README's runs.
 *
 * <p>Every Java block, in the README and in docs/, is a whole compilation unit, compiled exactly as printed (a block
 * in a list loses the list's indentation, as a reader's copy would): a reader copies one into a file of its public
 * class's name and it compiles.
 */
final class DocSnippetsTest {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PUBLIC_CLASS = Pattern.compile("^public (?:final )?(?:class|interface) (\\w+)",
            Pattern.MULTILINE);
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    static Path readmeClasses;

    @TempDir
    Path dir;

    @BeforeAll
    static void compileReadme() throws IOException {
        List<JavaFileObject> units = new ArrayList<>();
        for (String code : javaBlocks(ROOT.resolve("README.md"))) {
            Matcher name = PUBLIC_CLASS.matcher(code);
            assertThat(name.find()).as("a README block declares a public class:\n" + code).isTrue();
            units.add(source(name.group(1), code));
        }
        assertThat(units).as("README java blocks").hasSize(2);
        compile(units, readmeClasses);
    }

    @Test
    void readmeQuickStart_runsAsPrinted_inItsOwnWorkingDirectory() throws Exception {
        // A child JVM in an empty directory, so the example's "memfas.db" lands there, as it would for a reader.
        Path work = Files.createDirectories(dir.resolve("work"));
        // As the README tells a user: on JDK 24 and newer, native access allowed on the command line.
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        if (Runtime.version().feature() >= 24) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.addAll(List.of("-cp", readmeClasses + java.io.File.pathSeparator
                + System.getProperty("java.class.path"), "QuickStart"));
        Process p = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("QuickStart finished").isTrue();

        assertThat(p.exitValue()).as(printed).isZero();
        assertThat(printed)
                .contains("<hint trigger=\"deploy\">Check the migrations ran before deploying.</hint>")
                .contains("We deploy on Tuesdays and Thursdays.</memory>");
        // Loading the default model logs nothing at WARN, but for DJL's tokenizer on a machine with a CUDA runtime and
        // no GPU driver (this build's machines have one), which says it cannot count GPUs.
        assertThat(printed.lines().filter(line -> line.contains("WARN") && !line.contains("cuda.CudaUtils")))
                .isEmpty();
        assertThat(work.resolve("memfas.db")).isRegularFile();
    }

    @Test
    void readmeAgentLoop_putsTheContextInThePrompt_remembersTheExchange_reportsWhatTheAnswerCited() throws Exception {
        SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("agent.db"));
        try (ContextCurator curator = Memfas.newBuilder().store(store).build();
             URLClassLoader loader = new URLClassLoader(new URL[] {readmeClasses.toUri().toURL()},
                     getClass().getClassLoader())) {
            curator.remember(Memory.builder("Deploys go out on Tuesdays.").id("deploy-days").build());
            curator.remember(Memory.builder("Deploys need a green build on main.").id("deploy-build").build());
            AtomicReference<String> prompt = new AtomicReference<>();
            BinaryOperator<String> model = (system, user) -> {
                prompt.set(system);
                return "Yes, it is Tuesday [deploy-days].";
            };
            Method turn = loader.loadClass("AgentLoop").getMethod("turn", ContextCurator.class,
                    BinaryOperator.class, String.class, String.class);

            Object answer = turn.invoke(null, curator, model, "s1", "Can we deploy today?");

            assertThat(answer).isEqualTo("Yes, it is Tuesday [deploy-days].");
            assertThat(prompt.get()).containsPattern("<memory id=\"deploy-days\"|\\n\\[deploy-days\\] ")
                    .containsPattern("<memory id=\"deploy-build\"|\\n\\[deploy-build\\] ");
            List<String> remembered = new ArrayList<>();
            store.forEach(Memory.DEFAULT_NAMESPACE, MemoryFilter.all(), m -> {
                if (m.source().equals("s1")) {
                    remembered.add(m.text());
                }
            });
            assertThat(remembered).containsExactlyInAnyOrder("User: Can we deploy today?",
                    "Assistant: Yes, it is Tuesday [deploy-days].");
            // Both were included (one access each); only the cited one was reported helpful.
            assertThat(store.get(Memory.DEFAULT_NAMESPACE, "deploy-days").orElseThrow().accessCount()).isEqualTo(2);
            assertThat(store.get(Memory.DEFAULT_NAMESPACE, "deploy-build").orElseThrow().accessCount()).isEqualTo(1);
        }
    }

    @Test
    void javaBlocksInDocs_compileAsPrinted() throws IOException {
        compileDocFragments(dir);
    }

    @Test
    void scopesExample_runsAsPrinted_withTheDefaultModel() throws Exception {
        compileDocFragments(dir);
        try (dev.memfas.djl.DjlEmbedder model = dev.memfas.djl.DjlEmbedder.defaultModel();
             ContextCurator curator = Memfas.newBuilder().embedder(model).build();
             URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Method example = loader.loadClass("RulesForAGoProject").getDeclaredMethod("rulesForAGoProject",
                    ContextCurator.class);
            example.setAccessible(true);

            @SuppressWarnings("unchecked")
            List<String> ids = (List<String>) example.invoke(null, curator);

            assertThat(ids).containsExactlyInAnyOrder("tests", "go-errors", "hydra-debug");
        }
    }

    @Test
    void stateFilterAndLevelExamples_runAsPrinted() throws Exception {
        compileDocFragments(dir);
        try (ContextCurator curator = Memfas.newBuilder().build();
             URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Object plan = fragment(loader, "Resume", "resume").invoke(null, curator);
            assertThat(plan).isEqualTo("{\"steps\": [\"migrate\", \"deploy\", \"verify\"], \"at\": 1}");

            curator.state().save("default", "notes/deploy-window", "\"deploy between 10:00 and 16:00\"");
            curator.state().save("default", "notes/lunch-order", "\"two pizzas\"");
            dev.memfas.ContextResponse withPlan = (dev.memfas.ContextResponse)
                    fragment(loader, "WithPlan", "withPlan").invoke(null, curator);
            assertThat(withPlan.stateKeys()).containsExactly("plan", "notes/deploy-window");

            dev.memfas.State.SaveOutcome saved = (dev.memfas.State.SaveOutcome) fragment(loader, "AfterTool",
                    "afterTool")
                    .invoke(null, curator, "{\"name\": \"Ana\", \"prefers\": \"short answers\"}");
            assertThat(saved.key()).isEqualTo("tool/getUserProfile");

            curator.remember(Memory.builder("Kafka retention is seven days.").author("ana").source("notes/kafka.md")
                    .createdAt(java.time.Instant.parse("2026-03-01T00:00:00Z")).build());
            curator.remember(Memory.builder("Lunch is at noon.").author("ana").source("notes/lunch.md")
                    .createdAt(java.time.Instant.parse("2026-03-01T00:00:00Z")).build());
            @SuppressWarnings("unchecked")
            List<Memory> kafka = (List<Memory>) fragment(loader, "AnasKafkaNotes", "anasKafkaNotes")
                    .invoke(null, curator);
            assertThat(kafka).extracting(Memory::text).containsExactly("Kafka retention is seven days.");

            dev.memfas.ContextResponse lean = (dev.memfas.ContextResponse)
                    fragment(loader, "Lean", "lean").invoke(null, curator, "kafka");
            assertThat(lean.budget()).isEqualTo(800);
        }
    }

    private static Method fragment(URLClassLoader loader, String type, String name) throws Exception {
        for (Method m : loader.loadClass(type).getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                m.setAccessible(true);
                return m;
            }
        }
        throw new AssertionError("no method " + name + " in " + type);
    }

    /** Compiles every Java block of docs/ into {@code out}, each as printed, in a file named for its public class. */
    private static void compileDocFragments(Path out) throws IOException {
        List<JavaFileObject> units = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            for (Path file : docs.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                for (String code : javaBlocks(file)) {
                    String unit = code.stripIndent();
                    Matcher name = PUBLIC_CLASS.matcher(unit);
                    assertThat(name.find()).as(file.getFileName() + ": a block declares a public class:\n" + unit)
                            .isTrue();
                    assertThat(names.add(name.group(1))).as("a second public class " + name.group(1)).isTrue();
                    units.add(source(name.group(1), unit));
                }
            }
        }
        assertThat(units).as("java blocks found in docs/").hasSizeGreaterThanOrEqualTo(40);
        compile(units, out);
    }

    private static List<String> javaBlocks(Path file) throws IOException {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(Files.readString(file));
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    private static void compile(List<JavaFileObject> units, Path out) {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean ok = compiler.getTask(diagnostics, null, null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString(), "-proc:none"),
                null, units).call();
        assertThat(ok).as(diagnostics.toString()).isTrue();
    }

    private static JavaFileObject source(String name, String code) {
        return new SimpleJavaFileObject(java.net.URI.create("string:///" + name + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
    }
}
