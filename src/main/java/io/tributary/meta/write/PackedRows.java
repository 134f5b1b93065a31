package io.tributary.meta.write;

import io.tributary.catalog.TableDef;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.storage.KeyValueRun;
import io.tributary.storage.Keyspace;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A bulk load's rows, packed, while its statement has only inserted and its keys ascend (the
 * bulk half of {@link TableWriter}): the rows then fill a few large arrays of a
 * {@link KeyValueRun} instead of three objects per row until the statement commits. Made only for
 * a table no view reads and without a watermark. The statement's thread only.
 */
final class PackedRows {
    private final TableDef table;
    private final RowCodec rowCodec;
    private final List<DataType> pkTypes;
    private final ByteWriter keyWriter = new ByteWriter(64);
    private final ByteWriter rowWriter = new ByteWriter(64);
    private KeyValueRun run = new KeyValueRun(TableKeys.PREFIX_LENGTH);

    PackedRows(TableDef table, RowCodec rowCodec) {
        this.table = table;
        this.rowCodec = rowCodec;
        this.pkTypes = table.primaryKeyTypes();
    }

    /**
     * Adds the row (full width, checked) when its key ascends after the last one's; returns false
     * and adds nothing otherwise.
     */
    boolean add(Object[] row) {
        keyWriter.reset();
        keyWriter.skip(TableKeys.PREFIX_LENGTH);
        KeyCodec.encode(keyWriter, pkTypes, row, table.primaryKey());
        int keyLength = keyWriter.length();
        if (!run.ascendsAfterLast(keyWriter.array(), keyLength)) {
            return false;
        }
        TableKeys.fillPrefix(table.id(), keyWriter.array(), keyLength);
        rowCodec.encodeInto(row, rowWriter);
        run.add(keyWriter.array(), keyLength, rowWriter.array(), rowWriter.length());
        return true;
    }

    /** The packed rows so far as a run, and a fresh run for the next statement's rows. */
    KeyValueRun take() {
        KeyValueRun taken = run;
        run = new KeyValueRun(TableKeys.PREFIX_LENGTH);
        return taken;
    }

    /** The packed rows so far, as the statement's inserts in order. */
    List<TableWriter.Change> changes() {
        return changesOf(run);
    }

    /** The inserts of {@code packed}'s rows, in its order. */
    static List<TableWriter.Change> changesOf(KeyValueRun packed) {
        List<TableWriter.Change> out = new ArrayList<>(packed.size());
        for (int i = 0; i < packed.size(); i++) {
            out.add(new TableWriter.Change(packed.key(i), packed.value(i), true, null));
        }
        return out;
    }

    /**
     * Writes a packed bulk load to the epoch under the barrier lock: no view reads the table and
     * the table has no watermark, so only the uniqueness of its keys is checked (one seek, when no
     * committed key lies in their range) before its pairs join the epoch as one run. The keys of a
     * table without a primary key are fresh row ids ({@link RowIdGenerator} never hands one out
     * twice), so they are not checked: that check folded every earlier run of the epoch into the
     * buffer's index and searched each new run for all of it, a cost growing with the epoch that
     * was a third of a source's CPU.
     *
     * @param freshKeys whether every key is a fresh row id, which cannot exist already
     * @return the position in {@code packed} of a key that exists already (nothing is written
     *     then), or -1 when the run was written
     */
    static int stage(WriteBuffer epoch, KeyValueRun packed, boolean freshKeys) {
        int existing = freshKeys ? -1 : epoch.firstExisting(Keyspace.DATA, packed);
        if (existing >= 0) {
            return existing;
        }
        epoch.putRun(Keyspace.DATA, packed);
        return -1;
    }
}
