package io.tributary.connector;

import io.tributary.connector.datagen.DatagenConnector;
import io.tributary.connector.files.FilesConnector;
import io.tributary.connector.nexmark.NexmarkConnector;
import io.tributary.connector.postgres.PostgresCdcConnector;
import java.util.List;

/**
 * The connectors a server offers, in one list: a new built-in connector is one line here.
 */
public final class BuiltinConnectors {
    private BuiltinConnectors() {}

    public static Connectors create() {
        return new Connectors(List.of(
                new DatagenConnector(), new FilesConnector(), new NexmarkConnector(), new PostgresCdcConnector()));
    }
}
