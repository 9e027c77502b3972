package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the embedder makes no network connection: a child JVM loads the model and embeds inside an empty network
 * namespace ({@code unshare -n}, so nothing could leave the machine anyway) under {@code strace -e trace=connect},
 * and no IPv4/IPv6 connect is attempted. The control run, with DJL's offline switches turned off, shows the same
 * harness does see DJL's start-up probe of the EC2 metadata address.
 */
final class OfflineIT {
    @TempDir
    Path dir;

    @Test
    void embedding_attemptsNoNetworkConnection() throws Exception {
        Path trace = dir.resolve("offline.trace");

        ChildJvm.Result r = ChildJvm.run(traced(trace, List.of()));

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("dimension 384");
        List<String> connects = inetConnects(trace);
        assertThat(connects).as("IPv4/IPv6 connect calls").isEmpty();
    }

    @Test
    void control_withDjlOnlineMode_theHarnessSeesItsProbe() throws Exception {
        Path trace = dir.resolve("online.trace");

        ChildJvm.Result r = ChildJvm.run(traced(trace,
                List.of("-Dai.djl.offline=false", "-DOPT_OUT_TRACKING=false")));

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(inetConnects(trace)).as("connect calls DJL makes when not offline")
                .anySatisfy(line -> assertThat(line).contains("169.254.169.254"));
    }

    private static List<String> traced(Path trace, List<String> jvmArgs) {
        List<String> cmd = new ArrayList<>(List.of("unshare", "-n", "strace", "-f", "-qq", "-e", "trace=connect",
                "-o", trace.toString()));
        cmd.addAll(ChildJvm.javaCommand(System.getProperty("java.class.path"), jvmArgs, EmbedOnce.class));
        return cmd;
    }

    private static List<String> inetConnects(Path trace) throws Exception {
        return Files.readAllLines(trace).stream()
                .filter(line -> line.contains("connect(") && (line.contains("AF_INET") || line.contains("AF_INET6")))
                .toList();
    }
}
