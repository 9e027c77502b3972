package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block in README.md and docs/ compiles against the current API. A block is a run of statements,
 * or, when it starts with {@code static}, member declarations.
 */
final class DocSnippetsTest {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final String IMPORTS = """
            import dev.memfas.*;
            import dev.memfas.core.*;
            import dev.memfas.djl.*;
            import dev.memfas.sqlite.*;
            import java.nio.file.*;
            import java.time.*;
            import java.util.*;
            """;

    @TempDir
    Path out;

    @Test
    void javaBlocksInReadmeAndDocs_compile() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<JavaFileObject> sources = new ArrayList<>();
        for (Path file : files) {
            Matcher m = JAVA_BLOCK.matcher(Files.readString(file));
            int n = 0;
            while (m.find()) {
                String name = "Snippet_" + file.getFileName().toString().replaceAll("\\W", "_") + "_" + (++n);
                String code = m.group(1);
                String body = code.stripLeading().startsWith("static ")
                        ? code : " static void run() throws Exception {\n" + code + "\n }\n";
                sources.add(source(name, IMPORTS + "class " + name + " {\n" + body + "}\n"));
            }
        }
        assertThat(sources).as("java blocks found").hasSizeGreaterThanOrEqualTo(3);

        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean ok = compiler.getTask(diagnostics, null, null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString(), "-proc:none"),
                null, sources).call();

        assertThat(ok).as(diagnostics.toString()).isTrue();
    }

    /** The README's "use it from Java" block runs and prints a context with the memory it remembered. */
    @Test
    void readmeJavaExample_runs() throws Exception {
        Matcher m = JAVA_BLOCK.matcher(Files.readString(Path.of("..", "README.md")));
        assertThat(m.find()).as("README has a java block").isTrue();
        Path db = out.resolve("readme.db");
        String code = m.group(1);
        assertThat(code).contains("Path.of(\"memfas.db\")");
        // The example's store file goes to a temporary directory instead of the working directory.
        code = code.replace("Path.of(\"memfas.db\")", "Path.of(\"" + db.toString().replace("\\", "\\\\") + "\")");
        String source = IMPORTS + "public class ReadmeExample {\n public static void run() throws Exception {\n" + code
                + "\n }\n}\n";
        StringWriter diagnostics = new StringWriter();
        boolean ok = ToolProvider.getSystemJavaCompiler().getTask(diagnostics, null, null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString(), "-proc:none"),
                null, List.of(source("ReadmeExample", source))).call();
        assertThat(ok).as(diagnostics.toString()).isTrue();

        java.io.PrintStream original = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[] {out.toUri().toURL()},
                getClass().getClassLoader())) {
            System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
            loader.loadClass("ReadmeExample").getMethod("run").invoke(null);
        } finally {
            System.setOut(original);
        }
        assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("<hint trigger=\"deploy\">Check the migrations ran before deploying.</hint>")
                .contains("We deploy on Tuesdays and Thursdays.</memory>");
        assertThat(db).isRegularFile();
    }

    private static JavaFileObject source(String name, String code) {
        return new SimpleJavaFileObject(java.net.URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
    }
}
