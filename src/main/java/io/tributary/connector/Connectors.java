package io.tributary.connector;

import io.tributary.common.SqlState;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The built-in connectors by name. Thread-safe (immutable after construction). */
public final class Connectors {
    private final Map<String, SourceConnector> byName = new TreeMap<>();

    public Connectors(List<SourceConnector> connectors) {
        for (SourceConnector c : connectors) {
            byName.put(c.name(), c);
        }
    }

    /** @throws ConnectorException 22023 naming the known connectors when {@code name} is unknown */
    public SourceConnector get(String name) {
        SourceConnector c = byName.get(name);
        if (c == null) {
            throw new ConnectorException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "unknown connector \"" + name + "\"; the connectors are: " + String.join(", ", byName.keySet()));
        }
        return c;
    }
}
