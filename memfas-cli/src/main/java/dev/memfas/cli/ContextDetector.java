package dev.memfas.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Finds the project and language a directory belongs to, for a request's {@code project} and {@code language}
 * (docs/scopes.md):
 * <ul>
 *   <li><b>project</b>: the name of the git repository's root directory (the nearest directory up from {@code dir}
 *       holding {@code .git}); outside git, the name the nearest build file up from {@code dir} declares:
 *       {@code pom.xml} (its {@code artifactId}), {@code package.json} ({@code name}, without an npm scope),
 *       {@code pyproject.toml} ({@code [project]} or {@code [tool.poetry]} {@code name}), {@code Cargo.toml}
 *       ({@code [package]} {@code name}) or {@code go.mod} (the module path's last element, a major-version suffix
 *       skipped); else none;
 *   <li><b>language</b>: the language most of the project's source files are in, by extension, counting at most
 *       {@value #MAX_FILES} files and {@value #MAX_DEPTH} directories deep from the project's root, never descending
 *       into version control, build output, dependencies or hidden directories ({@code .git}, {@code target},
 *       {@code build}, {@code node_modules}, ...) and never following a symbolic link.
 * </ul>
 * Reads only: nothing is written, and a file that cannot be read is passed over. Build files larger than
 * {@value #MAX_BUILD_FILE_BYTES} bytes are not read; a {@code pom.xml} is parsed with DTDs and external entities off.
 * Names are lower-cased; a name that is blank, over 128 characters or holds control characters is no name. Thread-safe.
 */
public final class ContextDetector {
    /** At most this many files are looked at for the language. */
    static final int MAX_FILES = 20_000;
    /** Directories deeper than this below the root are not looked into. */
    static final int MAX_DEPTH = 12;
    private static final int MAX_BUILD_FILE_BYTES = 1 << 20;
    private static final Set<String> SKIPPED = Set.of("target", "build", "out", "dist", "node_modules", "vendor",
            "venv", "__pycache__", "bin", "obj", "coverage");
    private static final Map<String, String> LANGUAGES = Map.ofEntries(
            Map.entry("java", "java"), Map.entry("kt", "kotlin"), Map.entry("kts", "kotlin"),
            Map.entry("scala", "scala"), Map.entry("groovy", "groovy"), Map.entry("clj", "clojure"),
            Map.entry("py", "python"), Map.entry("go", "go"), Map.entry("rs", "rust"),
            Map.entry("ts", "typescript"), Map.entry("tsx", "typescript"), Map.entry("js", "javascript"),
            Map.entry("jsx", "javascript"), Map.entry("mjs", "javascript"), Map.entry("cjs", "javascript"),
            Map.entry("rb", "ruby"), Map.entry("php", "php"), Map.entry("cs", "csharp"), Map.entry("fs", "fsharp"),
            Map.entry("c", "c"), Map.entry("h", "c"), Map.entry("cc", "cpp"), Map.entry("cpp", "cpp"),
            Map.entry("cxx", "cpp"), Map.entry("hpp", "cpp"), Map.entry("swift", "swift"), Map.entry("m", "objc"),
            Map.entry("dart", "dart"), Map.entry("ex", "elixir"), Map.entry("exs", "elixir"),
            Map.entry("erl", "erlang"), Map.entry("hs", "haskell"), Map.entry("ml", "ocaml"), Map.entry("lua", "lua"),
            Map.entry("r", "r"), Map.entry("jl", "julia"), Map.entry("zig", "zig"), Map.entry("sh", "shell"));
    private static final Pattern TOML_SECTION = Pattern.compile("^\\s*\\[([^\\]]+)]\\s*(#.*)?$");
    private static final Pattern TOML_NAME = Pattern.compile("^\\s*name\\s*=\\s*[\"']([^\"']*)[\"']");
    private static final Pattern GO_MODULE = Pattern.compile("^\\s*module\\s+\"?([^\\s\"]+)\"?", Pattern.MULTILINE);
    private static final Pattern MAJOR_VERSION = Pattern.compile("v\\d+");

    private ContextDetector() {}

    /**
     * What was found: the project (null if none), the language (null if no source file was found) and the directory
     * the project's files were counted from (the git root, the build file's directory, or the directory given).
     */
    public record Detected(String project, String language, Path root) {
        /** Checks the root is present. */
        public Detected {
            Objects.requireNonNull(root, "root");
        }
    }

    /**
     * The project and language of a directory, or of any directory below a project's root.
     *
     * @throws IllegalArgumentException if {@code dir} is not a directory
     */
    public static Detected detect(Path dir) {
        Objects.requireNonNull(dir, "dir");
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("not a directory: " + dir);
        }
        Path start = dir.toAbsolutePath().normalize();
        Path gitRoot = nearest(start, d -> Files.exists(d.resolve(".git"), LinkOption.NOFOLLOW_LINKS));
        String project = null;
        Path root = start;
        if (gitRoot != null && gitRoot.getFileName() != null) {
            project = name(gitRoot.getFileName().toString());
            root = gitRoot;
        }
        if (project == null) {
            for (Path d = start; d != null; d = d.getParent()) {
                String declared = declaredName(d);
                if (declared != null) {
                    project = declared;
                    root = d;
                    break;
                }
            }
        }
        return new Detected(project, language(root), root);
    }

    private static Path nearest(Path start, java.util.function.Predicate<Path> test) {
        for (Path d = start; d != null; d = d.getParent()) {
            if (test.test(d)) {
                return d;
            }
        }
        return null;
    }

    /** The project name a build file in this directory declares, or null. */
    private static String declaredName(Path dir) {
        for (String file : List.of("pom.xml", "package.json", "pyproject.toml", "Cargo.toml", "go.mod")) {
            Path p = dir.resolve(file);
            if (!Files.isRegularFile(p)) {
                continue;
            }
            String text = read(p);
            if (text == null) {
                continue;
            }
            String name = switch (file) {
                case "pom.xml" -> pomArtifactId(text);
                case "package.json" -> packageName(text);
                case "pyproject.toml" -> tomlName(text, Set.of("project", "tool.poetry"));
                case "Cargo.toml" -> tomlName(text, Set.of("package"));
                default -> goModuleName(text);
            };
            if (name(name) != null) {
                return name(name);
            }
        }
        return null;
    }

    private static String read(Path file) {
        try {
            if (Files.size(file) > MAX_BUILD_FILE_BYTES) {
                return null;
            }
            try (InputStream in = Files.newInputStream(file)) {
                return new String(in.readNBytes(MAX_BUILD_FILE_BYTES), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            return null;
        }
    }

    /** The {@code artifactId} directly under {@code <project>}, or null. */
    static String pomArtifactId(String xml) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            Element project = f.newDocumentBuilder()
                    .parse(new org.xml.sax.InputSource(new java.io.StringReader(xml))).getDocumentElement();
            for (Node n = project.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && "artifactId".equals(e.getTagName())) {
                    return e.getTextContent().strip();
                }
            }
            return null;
        } catch (Exception e) {
            // A malformed or hostile pom names no project.
            return null;
        }
    }

    /** The top-level {@code "name"} of a package.json, without its {@code @scope/}, or null. */
    static String packageName(String json) {
        int depth = 0;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            } else if (c == '"') {
                int end = stringEnd(json, i);
                if (end < 0) {
                    return null;
                }
                if (depth == 1 && json.substring(i + 1, end).equals("name")) {
                    int colon = skipSpace(json, end + 1);
                    if (colon < json.length() && json.charAt(colon) == ':') {
                        int value = skipSpace(json, colon + 1);
                        if (value < json.length() && json.charAt(value) == '"') {
                            int valueEnd = stringEnd(json, value);
                            if (valueEnd < 0) {
                                return null;
                            }
                            String name = json.substring(value + 1, valueEnd);
                            return name.startsWith("@") && name.indexOf('/') > 0
                                    ? name.substring(name.indexOf('/') + 1) : name;
                        }
                    }
                }
                i = end;
            }
        }
        return null;
    }

    /** The index of the quote that ends the string opening at {@code open}, or -1. */
    private static int stringEnd(String s, int open) {
        for (int i = open + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                return i;
            }
        }
        return -1;
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The {@code name = "..."} of the first of these TOML sections that has one, or null. */
    static String tomlName(String toml, Set<String> sections) {
        String section = "";
        for (String line : toml.split("\r?\n")) {
            Matcher s = TOML_SECTION.matcher(line);
            if (s.matches()) {
                section = s.group(1).strip();
                continue;
            }
            if (sections.contains(section)) {
                Matcher n = TOML_NAME.matcher(line);
                if (n.find()) {
                    return n.group(1);
                }
            }
        }
        return null;
    }

    /** The last element of a go.mod's module path, skipping a major-version suffix ({@code /v2}), or null. */
    static String goModuleName(String goMod) {
        Matcher m = GO_MODULE.matcher(goMod);
        if (!m.find()) {
            return null;
        }
        String[] parts = m.group(1).split("/");
        int last = parts.length - 1;
        if (last > 0 && MAJOR_VERSION.matcher(parts[last]).matches()) {
            last--;
        }
        return parts[last];
    }

    /** The name lower-cased, or null if it is no usable name. */
    private static String name(String raw) {
        if (raw == null) {
            return null;
        }
        String name = raw.strip().toLowerCase(Locale.ROOT);
        if (name.isEmpty() || name.length() > 128) {
            return null;
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i)) || Character.isSurrogate(name.charAt(i))) {
                return null;
            }
        }
        return name;
    }

    /** The language most files under {@code root} are in, by extension, or null. */
    static String language(Path root) {
        Map<String, Integer> counts = new HashMap<>();
        int[] seen = {0};
        try {
            // No FOLLOW_LINKS: a symbolic link is visited as a link, never followed out of the tree.
            Files.walkFileTree(root, EnumSet.noneOf(java.nio.file.FileVisitOption.class), MAX_DEPTH,
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                            if (dir.equals(root)) {
                                return FileVisitResult.CONTINUE;
                            }
                            String name = dir.getFileName().toString();
                            return name.startsWith(".") || SKIPPED.contains(name) ? FileVisitResult.SKIP_SUBTREE
                                    : FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                            if (attrs.isRegularFile()) {
                                String language = LANGUAGES.get(extension(file.getFileName().toString()));
                                if (language != null) {
                                    counts.merge(language, 1, Integer::sum);
                                }
                            }
                            return ++seen[0] >= MAX_FILES ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e) {
                            return FileVisitResult.CONTINUE;
                        }
                    });
        } catch (IOException e) {
            // What was counted before the failure still says something.
        }
        String best = null;
        int bestCount = 0;
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            if (e.getValue() > bestCount || (e.getValue() == bestCount && e.getKey().compareTo(best) < 0)) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best;
    }

    private static String extension(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot <= 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
    }
}
