package io.tributary.meta.write;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.ByteWriter;
import io.tributary.common.codec.KeyCodec;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.storage.TableKeys;
import java.util.List;
import java.util.StringJoiner;

/**
 * One table's rules for the rows a statement writes to it: their storage keys and encodings, NOT
 * NULL and CHECK, append-only, and the errors PostgreSQL gives when a row breaks them. Made by a
 * {@link TableWriter} and used by it while staging and by its {@link StatementRows} while
 * applying, both on the statement's thread.
 */
final class RowRules {
    private final TableDef table;
    private final RowCodec rowCodec;
    private final List<DataType> pkTypes;
    /** Whether the table has a watermark, which makes it append-only. */
    private final boolean appendOnly;

    private final ByteWriter keyWriter = new ByteWriter(64);
    private final ByteWriter rowWriter = new ByteWriter(64);
    /** The table's CHECK constraints, tested on every row checked; null when it has none. */
    private CheckConstraints checks;

    RowRules(TableDef table, boolean appendOnly) {
        this.table = table;
        this.rowCodec = new RowCodec(table.columnTypes());
        this.pkTypes = table.primaryKeyTypes();
        this.appendOnly = appendOnly;
    }

    TableDef table() {
        return table;
    }

    RowCodec codec() {
        return rowCodec;
    }

    /** The buffer {@link #encode} encodes in, for a caller encoding rows the same way. */
    ByteWriter rowWriter() {
        return rowWriter;
    }

    /** The row's storage key, encoded after room for the key prefix and copied once. */
    byte[] key(Object[] row) {
        keyWriter.reset();
        keyWriter.skip(TableKeys.PREFIX_LENGTH);
        KeyCodec.encode(keyWriter, pkTypes, row, table.primaryKey());
        return TableKeys.fillPrefix(table.id(), keyWriter.toByteArray());
    }

    /** The row (full width) encoded as it is stored. */
    byte[] encode(Object[] row) {
        return rowCodec.encode(row, rowWriter);
    }

    /**
     * A staged change's row as values: kept when views read the table, otherwise decoded here, for
     * ON CONFLICT and RETURNING, which need the values whether or not a view does.
     */
    Object[] valuesOf(TableWriter.Change c) {
        return c.values() != null ? c.values() : rowCodec.decode(c.row());
    }

    /** Tests every row checked from now on against {@code constraints} (null: none). */
    void checkRows(CheckConstraints constraints) {
        this.checks = constraints;
    }

    /** 0A000 for a change other than an insert to a table with a watermark. */
    void checkAppendOnly() {
        if (appendOnly) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "table \"" + table.name() + "\" has a watermark, so it is append-only:"
                            + " UPDATE, DELETE and INSERT ... ON CONFLICT are not supported on it");
        }
    }

    /** NOT NULL, then CHECK, PostgreSQL's order; 23502 or 23514. */
    void checkRow(Object[] row) {
        checkNotNull(row);
        if (checks != null) {
            checks.check(row);
        }
    }

    private void checkNotNull(Object[] row) {
        List<ColumnDef> columns = table.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (row[i] == null && columns.get(i).notNull()) {
                throw new TributaryException(
                        SqlState.NOT_NULL_VIOLATION,
                        "null value in column \""
                                + columns.get(i).name() + "\" of relation \"" + table.localName()
                                + "\" violates not-null constraint",
                        CheckConstraints.failingRow(table, row),
                        new TributaryException.ErrorObject(
                                table.schema(),
                                table.localName(),
                                columns.get(i).name(),
                                null));
            }
        }
    }

    /** 23505 naming the key of {@code encodedRow}. */
    TributaryException duplicate(byte[] encodedRow) {
        return duplicatePrimaryKey(table, rowCodec.decode(encodedRow));
    }

    /**
     * 23505 for a row of {@code table} whose primary key another row holds, naming the key's
     * columns and {@code row}'s values of them; also a referenced key's that an ON UPDATE action
     * moves onto another row's ({@link ForeignKeyChecks}).
     */
    static TributaryException duplicatePrimaryKey(TableDef table, Object[] row) {
        StringJoiner names = new StringJoiner(", ");
        StringJoiner values = new StringJoiner(", ");
        for (int i : table.primaryKey()) {
            names.add(table.columns().get(i).name());
            values.add(String.valueOf(PgTextFormat.format(table.columns().get(i).type(), row[i])));
        }
        String constraint = table.localName() + "_pkey";
        return new TributaryException(
                SqlState.UNIQUE_VIOLATION,
                "duplicate key value violates unique constraint \"" + constraint + "\"",
                "Key (" + names + ")=(" + values + ") already exists.",
                new TributaryException.ErrorObject(table.schema(), table.localName(), null, constraint));
    }
}
