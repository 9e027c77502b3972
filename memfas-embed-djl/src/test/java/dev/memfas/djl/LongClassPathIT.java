package dev.memfas.djl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ONNX Runtime 1.29.0 crashes the JVM (SIGSEGV) at load when the process command line is longer than about 4 KB; the
 * build pins 1.28.0. A child JVM with a class path of more than 8 KB loads the model and embeds.
 */
final class LongClassPathIT {
    @Test
    void childJvmWithALongClassPath_loadsAndEmbeds() throws Exception {
        StringBuilder cp = new StringBuilder(System.getProperty("java.class.path"));
        for (int i = 0; cp.length() < 8_192; i++) {
            cp.append(File.pathSeparatorChar).append("/nonexistent/memfas/padding/entry-").append(i);
        }
        List<String> command = ChildJvm.javaCommand(cp.toString(), List.of(), EmbedOnce.class);
        assertThat(String.join(" ", command).length()).isGreaterThan(8_192);

        ChildJvm.Result r = ChildJvm.run(command);

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("dimension 384");
    }
}
