package io.tributary.storage.rocksdb;

import io.tributary.storage.StateStore;
import io.tributary.storage.StateStoreContractTest;

import java.nio.file.Path;

class RocksStateStoreTest extends StateStoreContractTest {
    @Override
    protected StateStore open(Path dir) {
        return RocksStateStore.open(dir.resolve("rocks"));
    }
}
