package dev.memfas.mcp;

import dev.memfas.ContextCurator;
import dev.memfas.core.Memfas;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** What the HTTP server's tests share: a fresh in-memory curator, servers on any free port, all closed after. */
abstract class ServedCurator {
    ContextCurator curator;
    final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void newCurator() {
        curator = Memfas.newBuilder().build();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        curator.close();
    }

    /** Starts the server on a free port, closed after the test. */
    MemfasMcpHttpServer serve(MemfasMcpHttpServer.Builder b) {
        MemfasMcpHttpServer server = b.port(0).build();
        opened.add(server);
        return server;
    }

    /** Whether the bytes are well-formed UTF-8, as a strict client decodes them. */
    static boolean strictUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
