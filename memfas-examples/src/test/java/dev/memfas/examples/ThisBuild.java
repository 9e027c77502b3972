package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * This build's memfas artifacts as a local Maven repository, for nested builds that stand where a user's project
 * would: they read memfas from it and other artifacts from the user's repository ({@code maven.repo.local.tail}),
 * fetching from Maven Central only what neither has.
 */
final class ThisBuild {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String VERSION = "0.1.0-SNAPSHOT";
    private static final List<String> MODULES = List.of("memfas-api", "memfas-core", "memfas-sql", "memfas-sqlite",
            "memfas-postgres", "memfas-embed-djl", "memfas-mcp", "memfas-langchain4j", "memfas-micrometer",
            "memfas-spring-ai", "memfas-spring-boot-starter");

    private ThisBuild() {}

    /** A repository under {@code dir} holding memfas-parent, memfas-bom and the published modules' jars. */
    static Path repository(Path dir) throws Exception {
        Path repository = dir.resolve("repository");
        put(repository, "memfas-parent", ROOT.resolve("pom.xml"), null);
        put(repository, "memfas-bom", ROOT.resolve("memfas-bom/pom.xml"), null);
        for (String module : MODULES) {
            Path jar = ROOT.resolve(module).resolve("target").resolve(module + "-" + VERSION + ".jar");
            assertThat(jar).as("built by this build's package phase").isRegularFile();
            put(repository, module, ROOT.resolve(module).resolve("pom.xml"), jar);
        }
        return repository;
    }

    private static void put(Path repository, String artifact, Path pom, Path jar) throws Exception {
        Path dir = Files.createDirectories(repository.resolve("dev/memfas").resolve(artifact).resolve(VERSION));
        Files.copy(pom, dir.resolve(artifact + "-" + VERSION + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) {
            Files.copy(jar, dir.resolve(artifact + "-" + VERSION + ".jar"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Runs Maven (the wrapper of this repository) on a project, with this build's artifacts. */
    static Result maven(Path repository, Path pom, String... goals) throws Exception {
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("mvnw").toString(), "-B", "-q", "-f",
                pom.toString(), "-Dmaven.repo.local=" + repository, "-Dmaven.repo.local.tail=" + userRepository()));
        command.addAll(List.of(goals));
        return run(pom.getParent(), 900, command.toArray(String[]::new));
    }

    /** The user's local repository, which this build reads too: third-party artifacts come from there. */
    private static String userRepository() {
        String configured = System.getProperty("memfas.userRepository");
        return configured != null && !configured.isBlank() ? configured
                : Path.of(System.getProperty("user.home"), ".m2", "repository").toString();
    }

    record Result(int exit, String out) {}

    /** Runs a command to its end, its standard output and error together; fails if it outlasts the timeout. */
    static Result run(Path dir, int timeoutSeconds, String... command) throws Exception {
        Path log = Files.createTempFile("memfas-run", ".log");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds + " s:\n"
                    + Files.readString(log));
        }
        Result r = new Result(p.exitValue(), Files.readString(log));
        Files.deleteIfExists(log);
        return r;
    }
}
