package dev.memfas.cli;

import dev.memfas.spi.MemoryStore;
import dev.memfas.sqlite.SqliteMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code memfas backup FILE}: a consistent copy of the store, taken while it may be in use. */
@Command(name = "backup", description = "Copy the store to a new file, consistently, even while it is in use.")
final class BackupCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @Parameters(paramLabel = "FILE", description = "The copy; must not exist yet.")
    Path target;

    @Override
    public Integer call() throws Exception {
        Path abs = target.toAbsolutePath().normalize();
        if (Files.exists(abs)) {
            throw new IllegalArgumentException("backup target already exists: " + abs);
        }
        if (main.settings().dbUrl != null) {
            throw new IllegalArgumentException("memfas backup copies a SQLite file; back up a PostgreSQL store with"
                    + " the database's own tools, e.g. pg_dump --table 'memfas_*' (" + main.settings().where() + ")");
        }
        try (SqliteMemoryStore store = (SqliteMemoryStore) Workspace.openStore(main.settings(),
                Workspace.Access.READ)) {
            store.backupTo(abs);
        }
        main.out().println("backed up " + main.settings().db + " to " + abs + " (" + Files.size(abs) + " bytes)");
        return Main.OK;
    }
}
