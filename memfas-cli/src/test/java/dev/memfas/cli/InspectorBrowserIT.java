package dev.memfas.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memfas ui} in Debian's headless Chromium: the command's jar serves a SQLite file with the real model, and the
 * test reads, edits, forgets and replays in the page as a person would, then checks the store with the command. The
 * screenshots in docs/images are the ones this test takes: it writes them to target/screenshots, and to docs/images
 * when run with {@code -Dmemfas.screenshots=docs}, so that a build leaves the checkout as it found it.
 */
final class InspectorBrowserIT {
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path JAR = MODULE.resolve("target/memfas.jar");
    private static final Path IMAGES = "docs".equals(System.getProperty("memfas.screenshots"))
            ? MODULE.getParent().resolve("docs/images") : MODULE.resolve("target/screenshots");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final String HOSTILE = "<img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=2</script>"
            + " Deploy checklist </textarea> & \"quotes\"";

    @TempDir
    Path dir;

    @BeforeAll
    static void jarIsBuilt() {
        assertThat(JAR).as("memfas.jar is built by the package phase").isRegularFile();
    }

    @BeforeAll
    static void screenshotsHaveAPlace() throws Exception {
        Files.createDirectories(IMAGES);
    }

    @Test
    void aPersonBrowsesEditsForgetsAndReplays_andTheStoreSaysSo() throws Exception {
        memfas("remember", "We deploy on Tuesdays after the 10:00 standup.", "--id", "deploy", "--kind", "decision");
        memfas("remember", "The coffee machine on floor 3 is broken; use the one on floor 2.", "--id", "coffee");
        memfas("remember", HOSTILE, "--id", "hostile");
        memfas("remember", "Kafka consumer lag is fixed by smaller batches.", "--id", "kafka", "--pin");
        memfas("remember", "API keys rotate every 30 days.", "--id", "rotation-old");
        memfas("supersede", "rotation-old", "API keys rotate every 90 days.", "--id", "rotation");
        memfas("context", "when do we deploy?");
        memfas("context", "is the coffee machine working?");

        Process ui = start(null);
        try (HeadlessChromium chromium = new HeadlessChromium(dir, 1280, 860)) {
            chromium.open(awaitServing(ui));
            chromium.waitFor("document.querySelectorAll('#list tbody tr').length === 6");

            // The hostile memory is a row of text: no element of its own, nothing it says ran.
            assertThat(chromium.eval("window.__pwned === undefined").asBoolean()).isTrue();
            assertThat(chromium.eval("document.querySelectorAll('#list img, #list script').length").asInt()).isZero();
            assertThat(chromium.eval("document.querySelector('tr[data-id=hostile] td').textContent").asString())
                    .startsWith("<img src=x onerror=");

            chromium.click("tr[data-id=rotation]");
            chromium.waitFor("document.querySelectorAll('#d-chain li').length === 2");
            assertThat(chromium.eval("document.querySelector('#d-chain').innerText").asString())
                    .contains("every 30 days").contains("every 90 days");
            chromium.click("tr[data-id=hostile]");
            chromium.waitFor("document.querySelector('#d-id').textContent === 'hostile'");
            assertThat(chromium.eval("document.querySelector('#d-text').value").asString()).isEqualTo(HOSTILE);
            assertThat(chromium.eval("window.__pwned === undefined").asBoolean()).isTrue();
            chromium.click("tr[data-id=rotation]");
            chromium.waitFor("document.querySelector('#d-id').textContent === 'rotation'");
            chromium.screenshot(IMAGES.resolve("inspector-memories.png"));

            chromium.click("tr[data-id=deploy]");
            chromium.waitFor("document.querySelector('#d-id').textContent === 'deploy'");
            chromium.type("#d-text", "We deploy on Wednesdays after the 10:00 standup.");
            chromium.click("#d-save");
            chromium.waitFor("document.querySelector('#status').textContent === 'saved'");
            chromium.waitFor("document.querySelector('#d-history').children.length === 2");

            chromium.click("tr[data-id=coffee]");
            chromium.waitFor("document.querySelector('#d-id').textContent === 'coffee'");
            chromium.click("#d-forget");
            chromium.click("#d-forget-sure");
            chromium.waitFor("document.querySelector('#status').textContent === 'forgotten'"
                    + " && !document.querySelector('tr[data-id=coffee]')");

            chromium.click("button[data-tab=replay]");
            chromium.type("#r-query", "is the coffee machine on floor 3 working?");
            chromium.click("#replay-form button");
            chromium.waitFor("document.querySelector('#r-summary').textContent !== ''");
            assertThat(chromium.eval("document.querySelector('#r-items').innerText").asString())
                    .doesNotContain("coffee machine");
            chromium.type("#r-query", "when do we deploy?");
            chromium.click("#replay-form button");
            chromium.waitFor("document.querySelector('#r-items').innerText.includes('Wednesdays')");
            assertThat(chromium.eval("document.querySelector('#r-items').innerText").asString())
                    .contains("semantic").contains("lexical");
            assertThat(chromium.eval("document.querySelectorAll('#r-dropped tbody tr').length").asInt())
                    .isPositive();
            assertThat(chromium.eval("document.querySelector('#r-dropped').innerText").asString())
                    .containsPattern("below (relative floor|min score)");
            chromium.screenshot(IMAGES.resolve("inspector-replay.png"));

            chromium.click("button[data-tab=telemetry]");
            chromium.waitFor("document.querySelector('#t-report').srcdoc.includes('memfas report')");
            Thread.sleep(500); // the frame draws its charts
            chromium.screenshot(IMAGES.resolve("inspector-telemetry.png"));
            assertThat(chromium.eval("window.__pwned === undefined").asBoolean()).isTrue();
        } finally {
            stop(ui);
        }

        assertThat(memfas("show", "deploy")).contains("We deploy on Wednesdays after the 10:00 standup.");
        assertThat(memfas("context", "is the coffee machine on floor 3 working?")).doesNotContain("coffee machine");
        assertThat(memfas("list")).doesNotContain("coffee");
    }

    @Test
    void withAToken_theApiRefusesCallersWithout_andThePageAsksForIt() throws Exception {
        memfas("remember", "We deploy on Tuesdays after the 10:00 standup.", "--id", "deploy");
        String token = "ui-token-" + Long.toHexString(System.nanoTime()) + "-abcdef";
        Process ui = start(token);
        try (HeadlessChromium chromium = new HeadlessChromium(dir, 1280, 860)) {
            String url = awaitServing(ui);
            HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(url + "api/memories")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(401);

            chromium.open(url);
            chromium.waitFor("!document.querySelector('#token-bar').hidden");
            chromium.type("#token", token);
            chromium.click("#token-use");
            chromium.waitFor("document.querySelectorAll('#list tbody tr').length === 1");
            assertThat(Files.readString(dir.resolve("ui-stderr.txt"))).contains("no bearer token")
                    .doesNotContain(token);
        } finally {
            stop(ui);
        }
    }

    /** Runs the command's jar in the test's directory on its SQLite file, and returns what it printed. */
    private String memfas(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(JAVA, "-jar", JAR.toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--db", dir.resolve("m.db").toString()));
        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return Files.readString(out);
    }

    private Process start(String token) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(JAVA, "-jar", JAR.toString(), "ui", "--port", "0", "--db",
                dir.resolve("m.db").toString()).directory(dir.toFile())
                .redirectOutput(dir.resolve("ui-stdout.txt").toFile()).redirectError(dir.resolve("ui-stderr.txt")
                        .toFile());
        if (token != null) {
            pb.environment().put(McpCommand.TOKEN_VARIABLE, token);
        } else {
            pb.environment().remove(McpCommand.TOKEN_VARIABLE);
        }
        return pb.start();
    }

    private String awaitServing(Process ui) throws Exception {
        Path errors = dir.resolve("ui-stderr.txt");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        Pattern serving = Pattern.compile("inspector at (http://\\S+/)");
        while (System.nanoTime() < deadline) {
            Matcher m = serving.matcher(Files.readString(errors));
            if (m.find()) {
                return m.group(1);
            }
            if (!ui.isAlive()) {
                throw new AssertionError("memfas ui exited with " + ui.exitValue() + ":\n" + Files.readString(errors));
            }
            Thread.sleep(100);
        }
        throw new AssertionError("memfas ui did not start in 120 s:\n" + Files.readString(errors));
    }

    private static void stop(Process ui) throws InterruptedException {
        ui.destroy(); // SIGTERM: the shutdown hook stops serving and closes the store
        assertThat(ui.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
}
