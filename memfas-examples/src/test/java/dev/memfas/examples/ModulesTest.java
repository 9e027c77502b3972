package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The modules users see: each named module exports exactly its packages, whose public types are pinned here (a new
 * public type is a decision, made by changing this test); no package is split across two of the project's modules, on
 * the module path or off it. memfas-core, memfas-embed-djl and memfas-mcp stay automatic modules (their jars'
 * {@code Automatic-Module-Name}): core depends on jtokkit, whose jar names no module, and a named module may not be
 * published requiring a module named after a file; the other two need the model jars and the MCP SDK's dependencies,
 * which name none either.
 */
final class ModulesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void namedModules_exportExactlyTheirPackages_withThePinnedPublicTypes() throws Exception {
        // By audience: what an agent calls (the curator and its facets); what store and model authors implement;
        // the pluggable decisions; what runs beside the turns; what telemetry consumers receive.
        assertModule("memfas-api", "dev.memfas", Map.of(
                "dev.memfas", Set.of(
                        "ContextCurator", "ContextItem", "ContextLevel", "ContextRequest", "ContextResponse",
                        "ContextTier", "Conversation", "CuratorStats", "DroppedMemory", "Layer", "MemfasException",
                        "Memories",
                        "Memory", "MemoryFilter", "RecallHit", "RecallRequest", "RememberRequest", "Remembered",
                        "Scope", "ScopeBudgets", "ScoreBreakdown", "ScoringWeights", "State", "TimeService", "Trigger",
                        "Triggers"),
                "dev.memfas.spi", Set.of(
                        "Embedder", "Embeddings", "LexicalHit", "MemoryStore", "SharedStore", "StateStore",
                        "StoredMemory", "TokenCountStore", "Tokenizer", "TriggerStore", "VectorSpace"),
                "dev.memfas.policy", Set.of(
                        "DuplicatePolicy", "FactExtractor", "RelevanceJudge", "RetentionPolicy", "SavePolicy",
                        "Summarizer",
                        "SupersessionPolicy", "WorldKnowledgeProbe"),
                "dev.memfas.upkeep", Set.of(
                        "AgentEvent", "EventOutcome", "MaintenanceReport", "MaintenanceRequest", "Orientation",
                        "SummarizeRequest", "SummaryReport", "Upkeep", "UsageReport"),
                "dev.memfas.telemetry", Set.of("ExtractionTelemetry", "SessionSummary", "TelemetryListener",
                        "TurnTelemetry", "UsageTelemetry")));
        assertModule("memfas-sqlite", "dev.memfas.sqlite", Map.of("dev.memfas.sqlite", Set.of("SqliteMemoryStore")));
        // Internal (its pom says so): what the two SQL stores share, the base class of both and its parameters.
        assertModule("memfas-sql", "dev.memfas.sql", Map.of("dev.memfas.sql", Set.of("AbstractSqlStore", "SqlCodec",
                "SqlDialect", "SqlFilters", "SqlMemoryRow", "SqlStoreParts", "SqlTables", "SqlTransactions",
                "SqlWork")));
        assertModule("memfas-testkit", "dev.memfas.testkit", Map.of("dev.memfas.testkit",
                Set.of("MemoryStoreContract", "SharedStoreContract", "StateStoreContract", "TokenCountStoreContract",
                        "TriggerStoreContract", "WordEmbedder")));
    }

    /** The packages of memfas-core besides the builder's and the telemetry readers': the turn's steps and the rest. */
    private static final List<String> CORE_INTERNAL =
            List.of("curator", "envelope", "lifecycle", "store", "text", "turn", "vector", "write");

    @Test
    void postgres_publishesOnlyItsStore() throws Exception {
        assertThat(publicTypes("memfas-postgres", "dev.memfas.postgres")).containsExactly("PostgresMemoryStore");
        assertThat(Files.readString(ROOT.resolve("memfas-postgres/pom.xml")))
                .contains("<Automatic-Module-Name>dev.memfas.postgres</Automatic-Module-Name>");
    }

    @Test
    void config_publishesOnlyTheFilesReader_andKeepsItsParserInternal() throws Exception {
        assertThat(publicTypes("memfas-config", "dev.memfas.config")).containsExactly("MemfasConfig");
        // Public for the command, which reads the same file; left out of the published javadoc.
        assertThat(publicTypes("memfas-config", "dev.memfas.config.internal"))
                .containsExactlyInAnyOrder("ConfigFile", "OwnerOnly");
        assertThat(Files.readString(ROOT.resolve("pom.xml")))
                .contains(":dev.memfas.config.internal</excludePackageNames>");
        assertThat(Files.readString(ROOT.resolve("memfas-config/pom.xml")))
                .contains("<Automatic-Module-Name>dev.memfas.config</Automatic-Module-Name>");
    }

    @Test
    void core_publishesTheBuilderAndTheTelemetryReaders_andKeepsEveryOtherPackageInternal() throws Exception {
        assertThat(publicTypes("memfas-core", "dev.memfas.core")).containsExactly("Memfas");
        // The readers are API; the writer and the outputs the builder opens are public for the curator's package.
        assertThat(publicTypes("memfas-core", "dev.memfas.core.telemetry")).containsExactlyInAnyOrder(
                "TelemetryLog", "TelemetrySummary", "JsonlTelemetryWriter", "TelemetryOutputs");
        assertThat(Files.readString(ROOT.resolve("memfas-core/pom.xml")))
                .contains("<Automatic-Module-Name>dev.memfas.core</Automatic-Module-Name>");
        // Internal: public for memfas's own packages and modules, left out of the published javadoc.
        assertThat(Files.readString(ROOT.resolve("pom.xml"))).contains("<excludePackageNames>"
                + String.join(":", CORE_INTERNAL.stream().map(p -> "dev.memfas.core." + p).toList()) + ":");
        assertThat(packages(ROOT.resolve("memfas-core/src/main/java"))).containsExactlyInAnyOrderElementsOf(
                Stream.concat(Stream.of("dev.memfas.core", "dev.memfas.core.telemetry"),
                        CORE_INTERNAL.stream().map(p -> "dev.memfas.core." + p)).toList());
    }

    @Test
    void core_hasNoPackageOfMoreThan40Files() throws Exception {
        Path sources = ROOT.resolve("memfas-core/src/main/java");
        for (String pkg : packages(sources)) {
            try (Stream<Path> files = Files.list(sources.resolve(pkg.replace('.', '/')))) {
                assertThat(files.filter(f -> f.toString().endsWith(".java")).count()).as("files in %s", pkg)
                        .isLessThanOrEqualTo(40);
            }
        }
    }

    @Test
    void cli_ownsTheContextDetector() throws Exception {
        assertThat(publicTypes("memfas-cli", "dev.memfas.cli")).contains("ContextDetector");
    }

    @Test
    void noPackage_isSplitAcrossModules() throws Exception {
        Map<String, String> owner = new HashMap<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.filter(p -> Files.isRegularFile(p.resolve("pom.xml"))).toList()) {
                for (String root : List.of("src/main/java", "src/main/java21")) {
                    Path sources = module.resolve(root);
                    if (!Files.isDirectory(sources)) {
                        continue;
                    }
                    for (String pkg : packages(sources)) {
                        String previous = owner.putIfAbsent(pkg, module.getFileName().toString());
                        assertThat(previous == null || previous.equals(module.getFileName().toString()))
                                .as("package %s is in %s and %s", pkg, previous, module.getFileName()).isTrue();
                    }
                }
            }
        }
        assertThat(owner).containsEntry("dev.memfas.core", "memfas-core")
                .containsEntry("dev.memfas.core.vector", "memfas-core")
                        .containsEntry("dev.memfas.bench", "memfas-bench");
    }

    private static void assertModule(String module, String name, Map<String, Set<String>> publicTypes)
            throws Exception {
        Set<String> exports = publicTypes.keySet();
        Path classes = ROOT.resolve(module).resolve("target/classes");
        ModuleDescriptor descriptor;
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            descriptor = ModuleDescriptor.read(in);
        }
        assertThat(descriptor.name()).isEqualTo(name);
        Set<String> exported = new TreeSet<>();
        for (ModuleDescriptor.Exports e : descriptor.exports()) {
            if (e.source().equals(name + ".internal")) {
                // Helpers that are no contract, for memfas's own modules only.
                assertThat(e.targets()).as("%s exports %s to", name, e.source())
                        .isNotEmpty().allMatch(t -> t.startsWith("dev.memfas."));
                continue;
            }
            assertThat(e.isQualified()).as("%s exports %s to everyone", name, e.source()).isFalse();
            exported.add(e.source());
        }
        assertThat(exported).isEqualTo(new TreeSet<>(exports));
        // Besides what it exports, a module may hold only an internal package (helpers that are no contract).
        assertThat(descriptor.packages()).as("%s's packages", name).containsAll(exports)
                .allMatch(p -> exports.contains(p) || p.equals(name + ".internal"));
        for (Map.Entry<String, Set<String>> pkg : publicTypes.entrySet()) {
            assertThat(publicTypes(module, pkg.getKey())).as("public types of %s", pkg.getKey())
                    .containsExactlyInAnyOrderElementsOf(pkg.getValue());
        }
    }

    /** The simple names of the public top-level types compiled into one package of a module. */
    private static Set<String> publicTypes(String module, String pkg) throws Exception {
        Path classes = ROOT.resolve(module).resolve("target/classes");
        Path dir = classes.resolve(pkg.replace('.', '/'));
        Set<String> names = new TreeSet<>();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                ModulesTest.class.getClassLoader());
                Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String file = f.getFileName().toString();
                if (!file.endsWith(".class") || file.contains("$") || file.equals("package-info.class")) {
                    continue;
                }
                String simple = file.substring(0, file.length() - ".class".length());
                Class<?> type = Class.forName(pkg + "." + simple, false, loader);
                if (Modifier.isPublic(type.getModifiers())) {
                    names.add(simple);
                }
            }
        }
        return names;
    }

    /** The packages with Java sources under a source root. */
    private static Set<String> packages(Path sources) throws Exception {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(p -> p.toString().endsWith(".java") && !p.getFileName().toString().equals("module-info.java"))
                    .forEach(p -> out.add(sources.relativize(p.getParent()).toString().replace('/', '.')));
        }
        return out;
    }
}
