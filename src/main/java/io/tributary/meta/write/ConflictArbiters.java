package io.tributary.meta.write;

import io.tributary.catalog.IndexDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.types.DataType;
import io.tributary.storage.IndexKeys;
import io.tributary.storage.Keyspace;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The UNIQUE indexes an INSERT ... ON CONFLICT arbitrates on ({@code ON CONFLICT (email)}, {@code
 * ON CONSTRAINT t_email_key}, or every unique index for a DO NOTHING without a target), and whether
 * the primary key is one of them. For each proposed row it finds the row it conflicts with: a
 * stored row whose entry in an arbiter index holds the proposed values (one point read each), or
 * an earlier proposed row of the statement with those values. Used by {@link StatementRows} under
 * the barrier lock while an ON CONFLICT statement stages; immutable.
 */
public final class ConflictArbiters {
    /** What a proposed row conflicts with; see {@link #resolve}. */
    enum Kind {
        /** No arbiter holds its values: it is inserted under its own key. */
        NONE,
        /** A stored row holds its values in an arbiter index: {@link Target#rowKey} is that row's key. */
        STORED,
        /** An earlier proposed row of the statement has its values in an arbiter index. */
        PROPOSED
    }

    /** A proposed row's conflict: its kind and, for {@link Kind#STORED}, the stored row's key. */
    record Target(Kind kind, byte[] rowKey) {
        private static final Target NONE = new Target(Kind.NONE, null);
        private static final Target PROPOSED = new Target(Kind.PROPOSED, null);
    }

    private final TableDef table;
    private final boolean key;
    private final List<IndexDef> indexes;

    /**
     * @param key whether the primary key arbitrates too (a proposed key that is stored is a conflict
     *     with that row); when it does not, a stored key is 23505 as in PostgreSQL
     * @param indexes the arbiter unique indexes of {@code table}
     */
    public ConflictArbiters(TableDef table, boolean key, List<IndexDef> indexes) {
        this.table = table;
        this.key = key;
        this.indexes = List.copyOf(indexes);
    }

    /** Whether the primary key arbitrates. */
    boolean key() {
        return key;
    }

    /**
     * Each proposed row's conflict on the arbiter indexes, in order. {@code rows} are the
     * statement's proposed rows (full width) and {@code keys} their own row keys.
     */
    List<Target> resolve(WriteBuffer epoch, List<Object[]> rows, List<byte[]> keys) {
        int[][] columns = new int[indexes.size()][];
        List<List<DataType>> types = new ArrayList<>(indexes.size());
        for (int j = 0; j < indexes.size(); j++) {
            columns[j] = indexes.get(j).positionsIn(table);
            types.add(indexes.get(j).typesIn(table));
        }
        ByteWriter scratch = new ByteWriter(64);
        Set<ByteBuffer> proposed = new HashSet<>();
        List<Target> out = new ArrayList<>(rows.size());
        List<byte[]> entries = new ArrayList<>(indexes.size());
        for (int i = 0; i < rows.size(); i++) {
            Object[] row = rows.get(i);
            entries.clear();
            Target target = Target.NONE;
            for (int j = 0; j < indexes.size() && target.kind() == Kind.NONE; j++) {
                if (IndexKeys.hasNull(row, columns[j])) {
                    continue; // NULLs are distinct: such a row conflicts with none
                }
                IndexDef index = indexes.get(j);
                byte[] entry = IndexKeys.key(index.id(), types.get(j), row, columns[j], true, keys.get(i), scratch);
                entries.add(entry);
                if (proposed.contains(ByteBuffer.wrap(entry))) {
                    target = Target.PROPOSED;
                } else {
                    byte[] storedKey = epoch.get(Keyspace.DATA, entry);
                    if (storedKey != null) {
                        target = new Target(Kind.STORED, TableKeys.rowKey(table.id(), storedKey));
                    }
                }
            }
            for (byte[] entry : entries) {
                proposed.add(ByteBuffer.wrap(entry));
            }
            out.add(target);
        }
        return out;
    }
}
