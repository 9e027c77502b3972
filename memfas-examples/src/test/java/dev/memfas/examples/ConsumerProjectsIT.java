package dev.memfas.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The LangChain4j and Spring pages copied into new projects, as a user would: a Maven project whose dependency
 * management and dependencies are the page's XML blocks as printed, and whose sources are the page's Java blocks as
 * printed, built by Maven against memfas's artifacts of this build, then run by a program of this test's that uses the
 * page's classes. That memfas-bom composes with langchain4j-bom and spring-ai-bom is part of it: each page imports
 * both.
 *
 * <p>The nested builds use a repository of their own (under target/) that holds this build's memfas artifacts, read
 * other artifacts from the user's repository, and fetch from Maven Central only what neither has.
 */
final class ConsumerProjectsIT {
    private static final Path ROOT = ThisBuild.ROOT;
    private static final Path WORK = Path.of("target/consumer-projects").toAbsolutePath();
    private static final Pattern XML_BLOCK = Pattern.compile("```xml\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern PUBLIC_CLASS = Pattern.compile("^public (?:final )?(?:class|interface) (\\w+)",
            Pattern.MULTILINE);
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private static Path repository;

    @BeforeAll
    static void repositoryOfThisBuild() throws Exception {
        repository = ThisBuild.repository(WORK);
    }

    @Test
    void langChain4jPage_asPrinted_beside_langchain4jBom_buildsAndCitesTheMemoryItUsed() throws Exception {
        Path project = project("langchain4j", ROOT.resolve("docs/langchain4j.md"), """
                import dev.langchain4j.data.message.AiMessage;
                import dev.langchain4j.data.message.UserMessage;
                import dev.langchain4j.model.chat.ChatModel;
                import dev.langchain4j.model.chat.request.ChatRequest;
                import dev.langchain4j.model.chat.response.ChatResponse;
                import dev.memfas.ContextCurator;
                import dev.memfas.Memory;
                import dev.memfas.core.Memfas;
                import dev.memfas.djl.DjlEmbedder;
                import dev.memfas.sqlite.SqliteMemoryStore;
                import java.nio.file.Files;
                import java.util.regex.Matcher;
                import java.util.regex.Pattern;

                public class Check {
                    public static void main(String[] args) throws Exception {
                        // A model that cites the first memory it is shown, as a model told to cite its sources does.
                        ChatModel model = new ChatModel() {
                            @Override
                            public ChatResponse doChat(ChatRequest request) {
                                Matcher id = Pattern.compile("\\\\[([\\\\w-]+)\\\\] ").matcher(((UserMessage) request
                                        .messages().get(request.messages().size() - 1)).singleText());
                                return ChatResponse.builder().aiMessage(AiMessage.from(id.find()
                                        ? "Yes, on Tuesdays [" + id.group(1) + "]." : "No memory.")).build();
                            }
                        };
                        try (DjlEmbedder embedder = DjlEmbedder.defaultModel();
                             ContextCurator curator = Memfas.newBuilder().embedder(embedder)
                                     .store(SqliteMemoryStore.open(Files.createTempDirectory("check")
                                             .resolve("memfas.db"))).build()) {
                            curator.remember(Memory.builder("We deploy on Tuesdays.").id("deploy-days").build());
                            String answer = LangChain4jChat.ask(curator, model);
                            long used = curator.get("default", "deploy-days").orElseThrow().accessCount();
                            System.out.println(answer + " | accesses " + used);
                        }
                    }
                }
                """);

        String out = runCheck(project);

        assertThat(out).contains("Yes, on Tuesdays [deploy-days]. | accesses 2");
    }

    @Test
    void springPage_asPrinted_beside_springAiBom_startsWithMetersFromActuatorAlone() throws Exception {
        Path project = project("spring", ROOT.resolve("docs/spring-ai.md"), """
                import dev.memfas.ContextCurator;
                import dev.memfas.ContextRequest;
                import dev.memfas.Memory;
                import dev.memfas.springai.MemfasAdvisor;
                import io.micrometer.core.instrument.MeterRegistry;
                import org.springframework.ai.chat.client.ChatClient;
                import org.springframework.boot.WebApplicationType;
                import org.springframework.boot.SpringBootConfiguration;
                import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
                import org.springframework.boot.builder.SpringApplicationBuilder;
                import org.springframework.context.ConfigurableApplicationContext;
                import org.springframework.context.annotation.Import;

                // No component scan: these classes are in the default package.
                @SpringBootConfiguration
                @EnableAutoConfiguration
                @Import({ChatConfig.class, WeightsConfig.class})
                public class Check {
                    public static void main(String[] args) throws Exception {
                        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(Check.class)
                                .web(WebApplicationType.NONE)
                                .properties("spring.ai.openai.api-key=not-used", "memfas.database=" + args[0])
                                .run()) {
                            ChatClient chat = ctx.getBean(ChatClient.class);
                            ContextCurator curator = ctx.getBean(ContextCurator.class);
                            curator.remember(Memory.builder("We deploy on Tuesdays.").build());
                            curator.getContext(ContextRequest.builder("when do we deploy?").sessionId("s").build());
                            MeterRegistry meters = ctx.getBean(MeterRegistry.class);
                            System.out.println("chat client " + (chat != null) + ", advisor "
                                    + (ctx.getBean(MemfasAdvisor.class) != null) + ", memfas.turn "
                                    + meters.find("memfas.turn").timer().count());
                        }
                    }
                }
                """);

        String out = runCheck(project, WORK.resolve("spring-memfas.db").toString());

        assertThat(out).contains("chat client true, advisor true, memfas.turn 1");
    }

    /**
     * A project whose pom is made of the page's XML blocks (a block with {@code <dependencyManagement>} as the
     * project's, the {@code <dependency>} elements of the others as its dependencies), whose sources are the page's
     * Java blocks and the given check, and which Maven then builds.
     */
    private static Path project(String name, Path page, String check) throws Exception {
        Path project = WORK.resolve(name);
        if (Files.exists(project)) {
            try (Stream<Path> old = Files.walk(project)) {
                old.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(java.io.File::delete);
            }
        }
        Path sources = Files.createDirectories(project.resolve("src/main/java"));
        String text = Files.readString(page, StandardCharsets.UTF_8);
        String management = null;
        StringBuilder dependencies = new StringBuilder();
        Matcher xml = XML_BLOCK.matcher(text);
        while (xml.find()) {
            String block = xml.group(1);
            if (block.contains("<dependencyManagement>")) {
                management = block;
            } else if (block.contains("<dependency>")) {
                dependencies.append(block);
            }
        }
        assertThat(management).as(page + " prints a dependencyManagement block").isNotNull();
        Matcher java = JAVA_BLOCK.matcher(text);
        while (java.find()) {
            String unit = java.group(1).stripIndent();
            Matcher cls = PUBLIC_CLASS.matcher(unit);
            assertThat(cls.find()).isTrue();
            Files.writeString(sources.resolve(cls.group(1) + ".java"), unit);
        }
        Files.writeString(sources.resolve("Check.java"), check);
        Files.writeString(project.resolve("pom.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.example</groupId>
                  <artifactId>%s-page</artifactId>
                  <version>1</version>
                  <properties>
                    <maven.compiler.release>17</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                %s
                  <dependencies>
                %s
                  </dependencies>
                  <build>
                    <pluginManagement>
                      <plugins>
                        <!-- The versions memfas's own build uses, which the user's repository already holds. -->
                        <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
                        <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
                        <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
                        <plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.2</version></plugin>
                        <plugin><artifactId>maven-dependency-plugin</artifactId><version>3.8.1</version></plugin>
                      </plugins>
                    </pluginManagement>
                  </build>
                </project>
                """.formatted(name, management, dependencies));
        Path classpath = project.resolve("classpath.txt");
        ThisBuild.Result build = ThisBuild.maven(repository, project.resolve("pom.xml"), "package",
                "dependency:build-classpath", "-Dmdep.outputFile=" + classpath);
        assertThat(build.exit()).as("mvn package of the " + name + " page's project:\n" + build.out()).isZero();
        return project;
    }

    private static String runCheck(Path project, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(JAVA, "--enable-native-access=ALL-UNNAMED", "-cp",
                project.resolve("target/classes") + java.io.File.pathSeparator
                        + Files.readString(project.resolve("classpath.txt")).strip(), "Check"));
        command.addAll(List.of(args));
        ThisBuild.Result r = ThisBuild.run(project, 300, command.toArray(String[]::new));
        assertThat(r.exit()).as(r.out()).isZero();
        return r.out();
    }
}
