package dev.memfas.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.core.ManyTenantsRun;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * 20,000 namespaces of 5 memories and one of 20,000 in one database schema, each served once by a curator in a JVM of
 * {@value #HEAP_MB} MB: every turn shows its own namespace's memories only, and the vector and text indexes stay within
 * their limits ({@value #LIMIT_MB} MB each), where holding every namespace's would not fit in that heap.
 */
final class ManyTenantsIT {
    static final int NAMESPACES = 20_000;
    static final int LIMIT_MB = 8;
    static final int HEAP_MB = 80;

    @Test
    void twentyThousandNamespaces_eachTurnShowsItsOwn_andTheIndexesStayWithinTheirLimits() throws Exception {
        String url = EmbeddedPostgres.shared().newSchemaUrl();
        try (PostgresMemoryStore store = PostgresMemoryStore.open(url)) {
            ManyTenantsRun.fill(store, NAMESPACES);
        }
        long[] heap = ManyTenantsRun.inChild(ManyTenantsIT.class, url, HEAP_MB);
        long grown = heap[1] - heap[0];
        // The three caches (vector indexes, text indexes, token counts) at their limits, and under 1 KB for each
        // namespace served (its triggers, pinned ids, author names).
        assertThat(grown).as("heap grown while serving 20,000 namespaces")
                .isLessThan(3L * (LIMIT_MB << 20) + NAMESPACES * 1024L);
    }

    /** The child: serves every namespace once with small index limits, and prints the heap in use then. */
    public static void main(String[] args) throws IOException {
        long limit = (long) LIMIT_MB << 20;
        try (PostgresMemoryStore store = PostgresMemoryStore.builder(args[0]).lexicalIndexMemory(limit).build()) {
            long[] heap = ManyTenantsRun.serve(store, NAMESPACES, limit);
            System.out.println("heap " + heap[0] + " " + heap[1]);
        }
    }
}
