package dev.memfas.djl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a main class of the test class path in a child JVM and collects what it printed. */
final class ChildJvm {
    record Result(int exitCode, String output) {}

    private ChildJvm() {}

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static Result run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("child did not finish: " + command);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    static List<String> javaCommand(String classPath, List<String> jvmArgs, Class<?> main) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main.getName());
        return cmd;
    }
}
