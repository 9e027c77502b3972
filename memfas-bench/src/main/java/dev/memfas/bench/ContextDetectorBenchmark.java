package dev.memfas.bench;

import dev.memfas.cli.ContextDetector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link ContextDetector#detect} from a subdirectory of a git repository of {@code files} files: 70% Java sources in
 * packages 4 to 6 directories deep, 20% Python scripts, 10% other files, beside a {@code node_modules} and a
 * {@code target} of as many files again each, which it must not read. The files are small and in the page cache after
 * the first run, as a project's tree is on a developer's machine.
 *
 * <p>Run: {@code ./mvnw -B -q -pl memfas-bench -am package -DskipTests && java -jar
 * memfas-bench/target/benchmarks.jar ContextDetectorBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ContextDetectorBenchmark {
    @Param("10000")
    public int files;

    private Path root;
    private Path start;

    @Setup(Level.Trial)
    public void createTree() throws IOException {
        root = Files.createTempDirectory("memfas-detect");
        Path repo = Files.createDirectories(root.resolve("hydra"));
        Files.createDirectories(repo.resolve(".git/objects"));
        Files.writeString(repo.resolve("pom.xml"), "<project><artifactId>hydra</artifactId></project>");
        for (int i = 0; i < files; i++) {
            String dir = switch (i % 10) {
                case 0, 1 -> "scripts/tools" + (i % 7);
                case 2 -> "docs/section" + (i % 13);
                default -> "src/main/java/dev/hydra/module" + (i % 40) + (i % 3 == 0 ? "/internal" : "");
            };
            String ext = switch (i % 10) {
                case 0, 1 -> ".py";
                case 2 -> ".md";
                default -> ".java";
            };
            write(repo.resolve(dir).resolve("f" + i + ext));
            write(repo.resolve("node_modules/lib" + (i % 50)).resolve("m" + i + ".js"));
            write(repo.resolve("target/classes/dev/hydra").resolve("C" + i + ".class"));
        }
        start = Files.createDirectories(repo.resolve("src/main/java/dev/hydra/module1"));
        ContextDetector.Detected d = ContextDetector.detect(start);
        if (!"hydra".equals(d.project()) || !"java".equals(d.language())) {
            throw new IllegalStateException("detected " + d);
        }
    }

    private static void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "x");
    }

    @TearDown(Level.Trial)
    public void deleteTree() throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Benchmark
    public ContextDetector.Detected detect() {
        return ContextDetector.detect(start);
    }
}
