package dev.memfas.postgres;

import dev.memfas.testkit.WordEmbedder;
import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.ContextCurator;
import dev.memfas.ContextResponse;
import dev.memfas.Conversation;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * How many round trips to the server a turn takes: every statement executed and every commit, counted at the JDBC
 * interface under the store. A turn reads through a handful of statements, none per memory.
 */
final class RoundTripsTest {
    private final AtomicInteger trips = new AtomicInteger();
    private final List<String> sent = new ArrayList<>();

    @Test
    void getContext_overThousandsOfMemories_readsInAFewRoundTrips_noneForEachMemory() {
        PGSimpleDataSource pg = new PGSimpleDataSource();
        pg.setURL(EmbeddedPostgres.shared().newSchemaUrl());
        try (ContextCurator curator = Memfas.newBuilder().store(PostgresMemoryStore.builder(counting(pg)).build())
                .embedder(new WordEmbedder("words-64", 64)).build()) {
            List<Memory> conversation = new ArrayList<>();
            Instant t = Instant.parse("2026-11-24T09:00:00Z");
            for (int i = 0; i < 3000; i++) {
                conversation.add(Memory.builder("turn " + i + " about " + (i % 7 == 0 ? "kafka retention" : "lunch"))
                        .id("t" + i).source("chat:" + (i / 50)).kind(Conversation.TURN_KIND).createdAt(t.plusSeconds(i))
                        .build());
            }
            curator.rememberAll(conversation);
            curator.getContext("kafka retention", "warm-up");

            trips.set(0);
            sent.clear();
            ContextResponse r = curator.getContext("how long is kafka retention?", "s");

            assertThat(r.memoryIds()).hasSizeGreaterThan(5);
            // The last change (1), BM25 (1), the memories it found (1), the vector hits not read yet (1), the
            // neighbors of the best five (1), token counts (1), and the access statistics written (statement + commit).
            assertThat(trips.get()).as("statements: %s", sent).isLessThanOrEqualTo(8);
        }
    }

    private DataSource counting(DataSource target) {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    Object result = invoke(target, method, args);
                    return result instanceof Connection c ? wrap(c, Connection.class) : result;
                });
    }

    @SuppressWarnings("unchecked")
    private <T> T wrap(T target, Class<T> type) {
        InvocationHandler handler = (proxy, method, args) -> {
            String name = method.getName();
            if (name.startsWith("execute") || name.equals("commit")) {
                trips.incrementAndGet();
                sent.add(name);
            }
            Object result = invoke(target, method, args);
            if (name.equals("unwrap")) {
                return result; // the driver's own object, as a pool's proxy gives it
            }
            if (result instanceof PreparedStatement ps) {
                return wrap(ps, PreparedStatement.class);
            }
            if (result instanceof Statement s) {
                return wrap(s, Statement.class);
            }
            return result;
        };
        return (T) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type}, handler);
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
