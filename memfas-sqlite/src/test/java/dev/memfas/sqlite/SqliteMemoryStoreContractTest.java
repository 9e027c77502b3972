package dev.memfas.sqlite;

import dev.memfas.spi.MemoryStore;
import dev.memfas.testkit.MemoryStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

final class SqliteMemoryStoreContractTest extends MemoryStoreContract {
    @TempDir
    Path dir;

    @Override
    protected MemoryStore newStore() {
        return SqliteMemoryStore.open(dir.resolve("memfas.db"));
    }
}
