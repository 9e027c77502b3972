package dev.memfas.cli;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Expands the config's {@code sources} globs ({@code memory/*.md}, {@code notes/**}) against its directory. */
final class Sources {
    private Sources() {}

    static List<Path> expand(Path base, List<String> globs) {
        List<Path> out = new ArrayList<>();
        for (String glob : globs) {
            Path literal = base.resolve(glob);
            if (!glob.contains("*") && !glob.contains("?") && !glob.contains("{")) {
                out.add(literal); // a missing literal path is reported by the indexer
                continue;
            }
            PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
            try (Stream<Path> files = Files.walk(base)) {
                files.filter(Files::isRegularFile)
                        .filter(p -> matcher.matches(base.relativize(p)))
                        .sorted()
                        .forEach(out::add);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot list " + base + " for source '" + glob + "': "
                        + e.getMessage());
            }
        }
        return out;
    }
}
