package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a user of the published artifacts relies on: the BOM names every published module, each published pom
 * describes itself, and no published jar but memfas-core holds the package {@code dev.memfas.core}.
 */
final class BuildLayoutTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void bom_managesEveryPublishedModule_atTheProjectVersion() throws Exception {
        Document parent = read(ROOT.resolve("pom.xml"));
        Document bom = read(ROOT.resolve("memfas-bom/pom.xml"));
        List<String> managed = new ArrayList<>();
        List<String> models = new ArrayList<>();
        NodeList deps = bom.getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++) {
            Element dep = (Element) deps.item(i);
            if (text(dep, "groupId").equals("dev.langchain4j")) {
                models.add(text(dep, "artifactId"));
                assertThat(text(dep, "version")).isEqualTo("${memfas.models.version}");
                continue;
            }
            managed.add(text(dep, "artifactId"));
            assertThat(text(dep, "version")).isEqualTo("${project.version}");
        }

        assertThat(managed).containsExactlyInAnyOrderElementsOf(publishedModules(parent));
        // The model jars memfas-embed-djl reads, at the version it is built with.
        Document djl = read(ROOT.resolve("memfas-embed-djl/pom.xml"));
        List<String> djlModels = new ArrayList<>();
        NodeList djlDeps = djl.getElementsByTagName("dependency");
        for (int i = 0; i < djlDeps.getLength(); i++) {
            Element dep = (Element) djlDeps.item(i);
            String artifact = text(dep, "artifactId");
            if (artifact.startsWith("langchain4j-embeddings-") && dep.getElementsByTagName("scope").getLength() == 0) {
                djlModels.add(artifact);
            }
        }
        assertThat(models).containsExactlyInAnyOrderElementsOf(djlModels);
        assertThat(bom.getElementsByTagName("memfas.models.version").item(0).getTextContent().strip())
                .isEqualTo(parent.getElementsByTagName("langchain4j-embeddings.version").item(0).getTextContent()
                        .strip());
        assertThat(text(bom.getDocumentElement(), "version")).isEqualTo(text(parent.getDocumentElement(), "version"));
    }

    @Test
    void publishedModules_describeThemselves_andOnlyCoreHoldsTheCorePackage() throws Exception {
        Document parent = read(ROOT.resolve("pom.xml"));
        for (String module : publishedModules(parent)) {
            Document pom = read(ROOT.resolve(module).resolve("pom.xml"));
            assertThat(text(pom.getDocumentElement(), "description")).as(module + " description").isNotBlank();
            assertThat(text(pom.getDocumentElement(), "name")).as(module + " name").isNotBlank();
            if (!module.equals("memfas-core")) {
                assertThat(ROOT.resolve(module).resolve("src/main/java/dev/memfas/core")).as(module).doesNotExist();
            }
        }
        // Licences, developers and the source repository are inherited from the parent, which is published too.
        for (String element : List.of("url", "licenses", "developers", "scm")) {
            assertThat(parent.getDocumentElement().getElementsByTagName(element).getLength()).as(element).isPositive();
        }
        assertThat(Files.readString(ROOT.resolve("LICENSE"))).contains("Apache License", "Version 2.0");
        assertThat(Files.readString(ROOT.resolve("CHANGELOG.md"))).contains("## [0.1.0]");
    }

    /** The parent's modules, less the BOM and those that skip deployment. */
    private static List<String> publishedModules(Document parent) throws Exception {
        List<String> published = new ArrayList<>();
        NodeList modules = parent.getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++) {
            String module = modules.item(i).getTextContent().strip();
            String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
            if (!module.equals("memfas-bom") && !pom.contains("<maven.deploy.skip>true</maven.deploy.skip>")) {
                published.add(module);
            }
        }
        assertThat(published).contains("memfas-api", "memfas-core").doesNotContain("memfas-bench", "memfas-examples");
        return published;
    }

    private static Document read(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    /** The text of the first direct child element with this name, or null. */
    private static String text(Element parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().strip();
            }
        }
        return null;
    }
}
