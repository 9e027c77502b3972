package dev.memfas.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.core.Memfas;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A bounded burst on loopback: 1,500 clients connect at the same moment, each to remember one note. Every connection is
 * answered (none reset or left hanging), the server stays up, and every note acknowledged is stored.
 */
final class HttpBurstTest {
    private static final int CLIENTS = 1_500;
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"b\",\"version\":\"1\"}}}";

    /** One raw HTTP exchange over a new connection; the status line's code and the body. */
    private static String[] post(int port, String session, String body) throws Exception {
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
                + (session == null ? "" : "Mcp-Session-Id: " + session + "\r\n")
                + "Connection: close\r\nContent-Length: " + content.length + "\r\n\r\n";
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(120_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(content);
            out.flush();
            InputStream in = socket.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new String[] {reply.split(" ", 3)[1], reply};
        }
    }

    @Test
    void fifteenHundredClientsAtOnce_areAllAnswered_noneReset_andEveryAcknowledgedWriteIsStored() throws Exception {
        try (ContextCurator curator = Memfas.newBuilder().build();
                MemfasMcpHttpServer server = MemfasMcpHttpServer.builder(curator).port(0).build()) {
            int port = server.port();
            String[] init = post(port, null, INITIALIZE);
            String session = init[1].lines().filter(l -> l.regionMatches(true, 0, "Mcp-Session-Id:", 0, 15))
                    .findFirst().orElseThrow().substring(15).trim();
            post(port, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            CountDownLatch ready = new CountDownLatch(CLIENTS);
            CountDownLatch go = new CountDownLatch(1);
            Map<Integer, String> statuses = new ConcurrentHashMap<>();
            List<Future<?>> done = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int i = 0; i < CLIENTS; i++) {
                int n = i;
                done.add(clients.submit(() -> {
                    ready.countDown();
                    try {
                        go.await();
                        String[] r = post(port, session, "{\"jsonrpc\":\"2.0\",\"id\":" + (n + 10) + ",\"method\":"
                                + "\"tools/call\",\"params\":{\"name\":\"remember\",\"arguments\":{\"text\":"
                                + "\"Burst note number " + n + ".\",\"id\":\"burst-" + n + "\"}}}");
                        statuses.put(n, r[0] + (r[1].contains("\"isError\":false") ? " ok" : " " + r[1]));
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                    return null;
                }));
            }
            assertThat(ready.await(60, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            for (Future<?> f : done) {
                f.get(180, TimeUnit.SECONDS);
            }
            clients.shutdown();

            assertThat(failures).as("connections reset or failed").isEmpty();
            assertThat(statuses).hasSize(CLIENTS);
            assertThat(statuses.values()).as("every call answered and acknowledged").allMatch(s -> s.equals("200 ok"));
            for (int i = 0; i < CLIENTS; i++) {
                assertThat(curator.get("default", "burst-" + i)).as("burst-" + i).isPresent();
            }
            // Still serving.
            assertThat(post(port, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")[0])
                    .isEqualTo("200");
        }
    }
}
