package dev.memfas.cli;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Debian's Chromium, headless, driven over the DevTools protocol with the JDK's own WebSocket client: open a page, run
 * a script in it (to read it, or to type and click as a person would), take a screenshot. One page per instance.
 */
final class HeadlessChromium implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/chromium");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

    /** Starts the browser with a profile of its own in {@code dir}, at the given window size. */
    HeadlessChromium(Path dir, int width, int height) throws Exception {
        if (!Files.isExecutable(BINARY)) {
            throw new AssertionError("the inspector's tests need Debian's Chromium at " + BINARY
                    + " (apt-get install chromium)");
        }
        Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
        // The flags keep it from reaching the network on its own (updates, sync, field trials), which this machine
        // refuses, and from the GPU it does not have.
        process = new ProcessBuilder(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--hide-scrollbars", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "--window-size=" + width + "," + height, "about:blank")
                .redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
        Path portFile = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!(Files.isRegularFile(portFile) && Files.readAllLines(portFile).size() >= 2)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("chromium did not start:\n" + Files.readString(dir.resolve("chromium.log")));
            }
            Thread.sleep(50);
        }
        int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
        HttpClient http = HttpClient.newHttpClient();
        String targets = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        String page = null;
        for (JsonNode t : JSON.readTree(targets)) {
            if ("page".equals(t.path("type").asString())) {
                page = t.path("webSocketDebuggerUrl").asString();
            }
        }
        if (page == null) {
            throw new AssertionError("chromium has no page to drive: " + targets);
        }
        socket = http.newWebSocketBuilder().buildAsync(URI.create(page), new Listener()).get(30, TimeUnit.SECONDS);
        send("Page.enable", Map.of());
        send("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", height, "deviceScaleFactor", 1,
                "mobile", false));
    }

    /** Opens a URL and waits until its document has loaded. */
    void open(String url) throws Exception {
        send("Page.navigate", Map.of("url", url));
        waitFor("document.readyState === 'complete' && location.href.startsWith(" + quote(url) + ")");
    }

    /** Runs a script in the page (awaiting a promise it returns) and returns its value as JSON. */
    JsonNode eval(String script) throws Exception {
        JsonNode r = send("Runtime.evaluate", Map.of("expression", script, "awaitPromise", true,
                "returnByValue", true));
        if (r.has("exceptionDetails")) {
            throw new AssertionError("the script failed in the page: " + r.get("exceptionDetails") + "\n" + script);
        }
        return r.path("result").path("value");
    }

    /** Waits until a script's value is true in the page, for at most a minute. */
    void waitFor(String condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!eval("Boolean(" + condition + ")").asBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the page never came to: " + condition + "\nit shows: "
                        + eval("document.body ? document.body.innerText.slice(0, 2000) : ''").asString());
            }
            Thread.sleep(50);
        }
    }

    /** Types text into an input or text area as a person would: focus, the value, and an input event. */
    void type(String selector, String text) throws Exception {
        eval("(() => { const e = document.querySelector(" + quote(selector) + "); e.focus(); e.value = "
                + quote(text) + "; e.dispatchEvent(new Event('input', {bubbles: true})); })()");
    }

    /** Clicks the element a selector finds. */
    void click(String selector) throws Exception {
        eval("document.querySelector(" + quote(selector) + ").click()");
    }

    /** Saves a PNG of the page as it looks now. */
    void screenshot(Path png) throws Exception {
        JsonNode r = send("Page.captureScreenshot", Map.of("format", "png"));
        Files.createDirectories(png.getParent());
        Files.write(png, Base64.getDecoder().decode(r.path("data").asString()));
    }

    static String quote(String s) {
        return JSON.writeValueAsString(s);
    }

    private JsonNode send(String method, Map<String, Object> params) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode message = JSON.createObjectNode();
        message.put("id", id);
        message.put("method", method);
        message.set("params", JSON.valueToTree(params));
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        socket.sendText(JSON.writeValueAsString(message), true).get(30, TimeUnit.SECONDS);
        JsonNode reply = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        if (reply.has("error")) {
            throw new AssertionError(method + " failed: " + reply.get("error"));
        }
        return reply.path("result");
    }

    /** Hands each reply to the call waiting for its id; events are not needed. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                JsonNode message = JSON.readTree(text.toString());
                text.setLength(0);
                if (message.has("id")) {
                    CompletableFuture<JsonNode> waiting = pending.remove(message.get("id").asInt());
                    if (waiting != null) {
                        waiting.complete(message);
                    }
                }
            }
            webSocket.request(1);
            return null;
        }
    }

    @Override
    public void close() {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        } catch (RuntimeException e) {
            // the browser is going anyway
        }
        // Its helpers (renderer, zygote, crash handler) are read before it goes: once it has exited they are no longer
        // its descendants, and one still writing into the profile would keep the test's directory from being deleted.
        List<ProcessHandle> helpers = List.copyOf(process.descendants().toList());
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            for (ProcessHandle helper : helpers) {
                helper.destroyForcibly();
                helper.onExit().get(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("a helper of chromium did not exit", e);
        }
    }
}
