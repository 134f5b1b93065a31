package io.tributary.meta;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.DatabaseEntry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The list of a cluster's databases: each name with its id (the store namespace of its keys), and
 * the next id to give, so an id is never reused, not even after a crash left a dropped database's
 * keys behind. Stored whole as the store's root record, so creating or dropping a database is one
 * atomic write. Immutable.
 */
record DatabaseDirectory(Map<String, Integer> ids, int nextId) {
    private static final int FORMAT = 1;

    DatabaseDirectory {
        ids = java.util.Collections.unmodifiableMap(new TreeMap<>(ids));
    }

    /** A new cluster's: {@code dev} alone, as id 0 (the store's original namespace). */
    static DatabaseDirectory initial() {
        return new DatabaseDirectory(Map.of(Catalog.DATABASE, 0), 1);
    }

    DatabaseDirectory with(String name) {
        Map<String, Integer> next = new TreeMap<>(ids);
        next.put(name, nextId);
        return new DatabaseDirectory(next, nextId + 1);
    }

    DatabaseDirectory without(String name) {
        Map<String, Integer> next = new TreeMap<>(ids);
        next.remove(name);
        return new DatabaseDirectory(next, nextId);
    }

    /** In name order. */
    List<DatabaseEntry> entries() {
        List<DatabaseEntry> out = new ArrayList<>(ids.size());
        ids.forEach((name, id) -> out.add(new DatabaseEntry(name, id)));
        return out;
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT);
            out.writeInt(nextId);
            out.writeInt(ids.size());
            for (Map.Entry<String, Integer> e : ids.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The directory in {@code record}, or {@link #initial()} for a store that has none yet. */
    static DatabaseDirectory decode(byte[] record) {
        if (record == null) {
            return initial();
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(record))) {
            int format = in.readInt();
            if (format != FORMAT) {
                throw new IllegalStateException("unknown database directory format " + format);
            }
            int nextId = in.readInt();
            int n = in.readInt();
            Map<String, Integer> ids = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                ids.put(in.readUTF(), in.readInt());
            }
            return new DatabaseDirectory(ids, nextId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
