package dev.memfas.sqlite;

import dev.memfas.spi.MemoryStore;
import dev.memfas.testkit.MemoryStoreContract;
import dev.memfas.testkit.StateStoreContract;
import dev.memfas.testkit.TokenCountStoreContract;
import dev.memfas.testkit.TriggerStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

final class SqliteMemoryStoreContractTest extends MemoryStoreContract
        implements StateStoreContract, TriggerStoreContract, TokenCountStoreContract {
    @TempDir
    Path dir;

    @Override
    protected MemoryStore newStore() {
        return SqliteMemoryStore.open(dir.resolve("memfas.db"));
    }
}
