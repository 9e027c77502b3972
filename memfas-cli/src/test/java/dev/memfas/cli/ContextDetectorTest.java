package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Project and language detection on real directory trees. */
final class ContextDetectorTest {
    @TempDir
    Path tmp;

    private Path file(String relative, String content) throws IOException {
        Path p = tmp.resolve(relative);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, content);
    }

    private void files(String dir, String extension, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            file(dir + "/f" + i + "." + extension, "x");
        }
    }

    @Test
    void theGitRootsName_isTheProject_fromAnySubdirectory() throws IOException {
        Files.createDirectories(tmp.resolve("Hydra/.git"));
        file("Hydra/pom.xml", "<project><artifactId>hydra-parent</artifactId></project>");
        files("Hydra/src/main/java/dev/hydra", "java", 3);
        files("Hydra/scripts", "py", 1);

        ContextDetector.Detected d = ContextDetector.detect(tmp.resolve("Hydra/src/main/java/dev/hydra"));

        assertThat(d.project()).isEqualTo("hydra");
        assertThat(d.language()).isEqualTo("java");
        assertThat(d.root()).isEqualTo(tmp.resolve("Hydra").toAbsolutePath());
    }

    @Test
    void withoutGit_theNearestBuildFileNamesTheProject() throws IOException {
        file("a/pom.xml", """
                <?xml version="1.0"?>
                <project><parent><artifactId>corp-parent</artifactId></parent>
                  <artifactId>Billing-Service</artifactId></project>""");
        file("b/package.json", "{\"dependencies\": {\"name\": \"x\"}, \"name\": \"@acme/web-shop\"}");
        file("c/pyproject.toml", "[build-system]\nname = \"nope\"\n[project]\nname = \"cerberus\"\n");
        file("d/Cargo.toml", "[package]\nname = 'ferris'\n");
        file("e/go.mod", "module github.com/acme/hydra/v2\n\ngo 1.22\n");
        file("f/readme.txt", "no build file");

        assertThat(ContextDetector.detect(tmp.resolve("a")).project()).isEqualTo("billing-service");
        assertThat(ContextDetector.detect(tmp.resolve("b")).project()).isEqualTo("web-shop");
        assertThat(ContextDetector.detect(tmp.resolve("c")).project()).isEqualTo("cerberus");
        assertThat(ContextDetector.detect(tmp.resolve("d")).project()).isEqualTo("ferris");
        assertThat(ContextDetector.detect(tmp.resolve("e")).project()).isEqualTo("hydra");
        Files.createDirectories(tmp.resolve("a/src/deep"));
        assertThat(ContextDetector.detect(tmp.resolve("a/src/deep")).project()).isEqualTo("billing-service");
    }

    @Test
    void theLanguage_skipsDependenciesBuildOutputAndHiddenDirectories() throws IOException {
        Files.createDirectories(tmp.resolve("p/.git"));
        files("p/src", "py", 3);
        files("p/node_modules/lib", "js", 40);
        files("p/target/classes", "java", 40);
        files("p/.venv/lib", "go", 40);

        assertThat(ContextDetector.detect(tmp.resolve("p")).language()).isEqualTo("python");
    }

    @Test
    void symbolicLinks_areNeverFollowedOutOfTheTree() throws IOException {
        Files.createDirectories(tmp.resolve("p/.git"));
        files("p/src", "rs", 2);
        files("elsewhere", "go", 50);
        Files.createSymbolicLink(tmp.resolve("p/src/linked"), tmp.resolve("elsewhere"));

        assertThat(ContextDetector.detect(tmp.resolve("p")).language()).isEqualTo("rust");
    }

    @Test
    void aHostilePom_namesNothing_andReadsNoOtherFile() throws IOException {
        Path secret = file("secret.txt", "TOP-SECRET");
        file("x/pom.xml", "<?xml version=\"1.0\"?><!DOCTYPE p [<!ENTITY s SYSTEM \"" + secret.toUri()
                + "\">]><project><artifactId>&s;</artifactId></project>");

        assertThat(ContextDetector.detect(tmp.resolve("x")).project()).isNull();
        assertThat(ContextDetector.pomArtifactId("<project><artifactId>")).isNull();
    }

    @Test
    void nothingToGoOn_isNoProjectAndNoLanguage_andAFileIsRefused() throws IOException {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Path plain = file("plain.txt", "x");

        ContextDetector.Detected d = ContextDetector.detect(empty);

        assertThat(d.language()).isNull();
        assertThatThrownBy(() -> ContextDetector.detect(plain)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a directory: " + plain);
    }

    @Test
    void buildFileParsers_readTheRightName() {
        assertThat(ContextDetector.packageName("{\"nested\": {\"name\": \"no\"}, \"na\\\"me\": 1, \"name\": \"yes\"}"))
                .isEqualTo("yes");
        assertThat(ContextDetector.packageName("{\"name\": 5}")).isNull();
        assertThat(ContextDetector.tomlName("[tool.poetry] # app\nname = \"poet\"", Set.of("project", "tool.poetry")))
                .isEqualTo("poet");
        assertThat(ContextDetector.goModuleName("module example.com/tools")).isEqualTo("tools");
        assertThat(ContextDetector.goModuleName("go 1.22")).isNull();
    }
}
