package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import dev.memfas.postgres.EmbeddedPostgres;
import dev.memfas.postgres.PostgresMemoryStore;
import dev.memfas.spi.Embedder;
import dev.memfas.testkit.WordEmbedder;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * What one PostgreSQL primary carries as the store grows: a server of its own (and, up to {@code --replica-up-to}
 * memories, a streaming hot standby that curating processes read from) is filled with namespaces of
 * {@code --per-namespace} memories (12 words of {@link PostgresVsSqlite}'s Zipfian vocabulary, 384-dim vectors), and
 * at each size of {@code --memories} the processor time the servers spend is measured, read from {@code /proc}, apart
 * from the client's: per memory written one at a time (as an agent remembers), and per turn in a namespace of that
 * size, with and without the access counts a turn writes. From these, what one primary core carries: writes per
 * second, and turns per second with the turns' reads on the primary or on replicas (then the primary carries only the
 * access counts). Wall-clock rates of the one client are printed beside them; the client and both servers share this
 * machine's cores.
 *
 * <pre>
 * java -Xmx8g -cp memfas-bench/target/benchmarks.jar dev.memfas.bench.PrimaryLoad --memories 1000000,10000000
 * </pre>
 */
public final class PrimaryLoad {
    /** Vectors the size of a small model's (384 dimensions), from the words: memfas timed, not a model. */
    private static final Embedder EMBEDDER = new WordEmbedder("bag-of-words-384", 384);
    /**
     * The curators' vector index limit: the 20 namespaces at work (10,000 memories each by default, 15 MB of vectors
     * apiece) must fit, or every turn and write reads a namespace's vectors again (the 256 MB default holds about 10,
     * and the database then spent 21 ms a turn sending them).
     */
    private static final long INDEX_MEMORY = 1L << 30;

    private PrimaryLoad() {}

    public static void main(String[] args) throws Exception {
        long[] sizes = {1_000_000, 10_000_000};
        int perNamespace = 10_000;
        int turns = 2_000;
        int writes = 2_000;
        long replicaUpTo = 1_000_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--memories" -> sizes = Arrays.stream(args[++i].split(",")).mapToLong(Long::parseLong).toArray();
                case "--per-namespace" -> perNamespace = Integer.parseInt(args[++i]);
                case "--turns" -> turns = Integer.parseInt(args[++i]);
                case "--writes" -> writes = Integer.parseInt(args[++i]);
                case "--replica-up-to" -> replicaUpTo = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i] + " (usage: PrimaryLoad"
                        + " [--memories N,N,...] [--per-namespace N] [--turns N] [--writes N] [--replica-up-to N])");
            }
        }
        Random random = new Random(42);
        try (EmbeddedPostgres primary = EmbeddedPostgres.startNew()) {
            String url = primary.newSchemaUrl();
            PostgresMemoryStore.open(url).close(); // the tables, before the standby copies the data directory
            EmbeddedPostgres replica = replicaUpTo > 0 ? primary.startReplica() : null;
            System.out.printf(Locale.ROOT, "namespaces of %,d memories; %,d single writes and %,d turns per size;"
                    + " a streaming standby up to %,d memories%n%n", perNamespace, writes, turns, replicaUpTo);
            System.out.println("| memories | bulk ingest /s (wall) | primary CPU per memory written alone | writes/s"
                    + " per primary core | one client's writes/s (wall) | turn: primary CPU, reads on the primary |"
                    + " turn: primary CPU, reads on a replica (access counts) | replica CPU per turn | replica CPU per"
                    + " memory written (replay) | turns/s per primary core, without / with replicas |");
            System.out.println("|---|---|---|---|---|---|---|---|---|---|");
            long stored = 0;
            try (ContextCurator writer = Memfas.newBuilder().store(PostgresMemoryStore.open(url)).embedder(EMBEDDER)
                    .indexMemoryLimit(INDEX_MEMORY).build()) {
                for (long size : sizes) {
                    if (replica != null && stored >= replicaUpTo) {
                        replica.close(); // its copy of everything would double the disk taken
                        replica = null;
                    }
                    long start = System.nanoTime();
                    long from = stored;
                    while (stored < size) {
                        List<Memory> batch = new ArrayList<>(1000);
                        for (int k = 0; k < 1000 && stored < size; k++, stored++) {
                            batch.add(Memory.builder(text(random)).id("m" + stored)
                                    .namespace("t" + stored / perNamespace).build());
                        }
                        writer.rememberAll(batch);
                        if (stored % 1_000_000 == 0) {
                            System.err.printf(Locale.ROOT, "%,d memories stored%n", stored);
                        }
                    }
                    double ingest = (stored - from) / ((System.nanoTime() - start) / 1e9);
                    settle(url);
                    Row row = measure(primary, replica, url, writer, stored, perNamespace, turns, writes, random);
                    System.out.printf(Locale.ROOT, "| %,d | %.0f | %.2f ms | %.0f | %.0f | %.2f ms | %.2f ms | %s |"
                            + " %s | %.0f / %s |%n", size, ingest, row.primaryPerWrite * 1e3, 1 / row.primaryPerWrite,
                            row.writesPerSecond, row.primaryPerTurn * 1e3, row.primaryPerReplicaTurn * 1e3,
                            replica == null ? "(no replica)" : String.format(Locale.ROOT, "%.2f ms",
                                    row.replicaPerTurn * 1e3),
                            replica == null ? "(no replica)" : String.format(Locale.ROOT, "%.2f ms",
                                    row.replicaPerWrite * 1e3),
                            1 / row.primaryPerTurn, String.format(Locale.ROOT, "%.0f", 1 / row.primaryPerReplicaTurn));
                }
            } finally {
                if (replica != null) {
                    replica.close();
                }
            }
        }
    }

    private record Row(double primaryPerWrite, double writesPerSecond, double replicaPerWrite, double primaryPerTurn,
            double primaryPerReplicaTurn, double replicaPerTurn) {}

    /** Processor seconds per operation, on each server, at the store's present size. */
    private static Row measure(EmbeddedPostgres primary, EmbeddedPostgres replica, String url, ContextCurator writer,
            long stored, int perNamespace, int turns, int writes, Random random) throws IOException {
        int namespaces = (int) Math.max(1, stored / perNamespace);
        // The namespaces of the agents at work: 20 across the store, each of the store's namespace size.
        List<String> served = IntStream.range(0, 20).mapToObj(k -> "t" + random.nextInt(namespaces)).toList();
        // Writes one memory at a time into them, as agents remember.
        quiesce(primary, replica);
        double p0 = primary.cpuSeconds();
        double r0 = replica == null ? 0 : replica.cpuSeconds();
        long start = System.nanoTime();
        for (int i = 0; i < writes; i++) {
            writer.remember(Memory.builder(text(random)).id("w" + stored + "-" + i)
                    .namespace(served.get(i % served.size())).build());
        }
        double writesPerSecond = writes / ((System.nanoTime() - start) / 1e9);
        double primaryPerWrite = (primary.cpuSeconds() - p0) / writes;
        double replicaPerWrite = replica == null ? 0 : (replica.cpuSeconds() - r0) / writes;

        // Turns in 20 namespaces of the store's size, each loaded by a first turn before measuring.
        String replicaUrl = replica == null ? null
                : replica.jdbcUrl() + url.substring(url.indexOf("&currentSchema="));
        PostgresMemoryStore.Builder store = PostgresMemoryStore.builder(url);
        if (replicaUrl != null) {
            store.readReplica(replicaUrl);
            waitForReplay(replicaUrl, stored + writes);
        }
        double primaryPerTurn;
        double primaryPerReplicaTurn;
        double replicaPerTurn = 0;
        try (ContextCurator local = Memfas.newBuilder().store(PostgresMemoryStore.open(url)).embedder(EMBEDDER)
                .indexMemoryLimit(INDEX_MEMORY).build()) {
            primaryPerTurn = turns(local, served, turns, true, primary, random)[0];
        }
        if (replica == null) {
            // No standby: what the primary spends on a turn's access counts alone is its cost with and without them.
            try (ContextCurator local = Memfas.newBuilder().store(PostgresMemoryStore.open(url))
                    .embedder(EMBEDDER).indexMemoryLimit(INDEX_MEMORY).build()) {
                double readsOnly = turns(local, served, turns, false, primary, random)[0];
                primaryPerReplicaTurn = Math.max(primaryPerTurn - readsOnly, 1e-6);
            }
        } else {
            try (ContextCurator remote = Memfas.newBuilder().store(store.build()).embedder(EMBEDDER)
                    .indexMemoryLimit(INDEX_MEMORY).build()) {
                double[] perTurn = turns(remote, served, turns, true, primary, random, replica);
                primaryPerReplicaTurn = perTurn[0];
                replicaPerTurn = perTurn[1];
            }
        }
        return new Row(primaryPerWrite, writesPerSecond, replicaPerWrite, primaryPerTurn, primaryPerReplicaTurn,
                replicaPerTurn);
    }

    /** Processor seconds per turn on each server (the primary first), after a first turn in each namespace. */
    private static double[] turns(ContextCurator curator, List<String> namespaces, int turns, boolean recordAccess,
            EmbeddedPostgres primary, Random random, EmbeddedPostgres... others) throws IOException {
        for (String ns : namespaces) {
            turn(curator, ns, random, recordAccess);
        }
        EmbeddedPostgres[] servers = new EmbeddedPostgres[others.length + 1];
        servers[0] = primary;
        System.arraycopy(others, 0, servers, 1, others.length);
        quiesce(servers);
        double[] before = new double[servers.length];
        for (int s = 0; s < servers.length; s++) {
            before[s] = servers[s].cpuSeconds();
        }
        for (int i = 0; i < turns; i++) {
            turn(curator, namespaces.get(i % namespaces.size()), random, recordAccess);
        }
        double[] perTurn = new double[servers.length];
        for (int s = 0; s < servers.length; s++) {
            perTurn[s] = (servers[s].cpuSeconds() - before[s]) / turns;
        }
        return perTurn;
    }

    private static void turn(ContextCurator curator, String namespace, Random random, boolean recordAccess) {
        String query = PostgresVsSqlite.word(random) + " " + PostgresVsSqlite.word(random) + " and "
                + PostgresVsSqlite.word(random) + "?";
        curator.getContext(ContextRequest.builder(query).namespace(namespace).sessionId("load").tokenBudget(1024)
                .recordAccess(recordAccess).build());
    }

    /**
     * Waits until the servers are idle (under 2% of a core over a second: the standby done replaying, the checkpoint
     * and autovacuum done), so that what a measurement reads is what its operations cost.
     */
    private static void quiesce(EmbeddedPostgres... servers) throws IOException {
        long deadline = System.nanoTime() + 600_000_000_000L;
        while (System.nanoTime() < deadline) {
            double busy = 0;
            double[] before = new double[servers.length];
            for (int s = 0; s < servers.length; s++) {
                before[s] = servers[s] == null ? 0 : servers[s].cpuSeconds();
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for the servers to be idle", e);
            }
            for (int s = 0; s < servers.length; s++) {
                busy = Math.max(busy, servers[s] == null ? 0 : servers[s].cpuSeconds() - before[s]);
            }
            if (busy < 0.02) {
                return;
            }
        }
        System.err.println("the servers were still busy after 10 minutes; measuring anyway");
    }

    /**
     * Vacuums and analyzes the tables after the bulk writes, as autovacuum would soon after, so that its work does not
     * land in the measurements.
     */
    private static void settle(String url) throws IOException {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute("VACUUM ANALYZE");
        } catch (SQLException e) {
            throw new IOException("cannot vacuum: " + e.getMessage(), e);
        }
    }

    /** Waits until the standby holds every memory written so far (it replays what the primary commits). */
    private static void waitForReplay(String replicaUrl, long memories) throws IOException {
        long deadline = System.nanoTime() + 600_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (Connection c = DriverManager.getConnection(replicaUrl);
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT coalesce(sum(memories), 0) FROM "
                            + "memfas_namespace_stats")) {
                rs.next();
                if (rs.getLong(1) >= memories) {
                    return;
                }
                Thread.sleep(200);
            } catch (SQLException e) {
                throw new IOException("cannot read the standby: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for the standby", e);
            }
        }
        throw new IOException("the standby did not replay " + memories + " memories in 10 minutes");
    }

    private static String text(Random random) {
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < 12; w++) {
            sb.append(w == 0 ? "" : " ").append(PostgresVsSqlite.word(random));
        }
        return sb.append('.').toString();
    }
}
