package io.tributary.server.session;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.CopyTextTokenizer;
import io.tributary.common.codec.CsvTokenizer;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import io.tributary.common.types.TypeKind;
import io.tributary.common.types.Values;
import io.tributary.meta.Database;
import io.tributary.meta.write.TableWriter;
import io.tributary.sql.UtilityStatement.CopyFormat;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code COPY t FROM STDIN} in PostgreSQL's text and CSV formats (text split in bytes by {@link
 * CopyTextTokenizer}, CSV read by {@link CsvTokenizer#postgres}). Rows are parsed as data arrives
 * and staged in a {@link TableWriter};
 * nothing is applied until {@link #finish}, so a bad line or an aborted copy leaves the table
 * untouched. The first error is kept and reported by finish, and
 * later data is ignored. Session thread only.
 */
final class CopyFromStdin implements CopyInSink {
    private final Database db;
    private final TableDef table;
    private final int[] targets;
    private final TableWriter writer;
    private final Runnable cancelCheck;
    private final boolean awaitCommit;
    /** The session's zone, which timestamptz text without an offset is read in. */
    private final PgTimeZone zone;
    /** Values of the identity and SERIAL columns the COPY leaves out. */
    private final ColumnFill fill;
    /** The CSV dialect, or null for the text format. */
    private final CsvTokenizer csv;
    /** The text format's fields, or null for CSV. */
    private final CopyTextTokenizer text;

    private final List<ColumnDef> columns;
    /** The type of each target column. */
    private final DataType[] types;
    /** Bytes received after the last complete line: {@code pending[0, pendingLength)}. */
    private byte[] pending = new byte[8192];

    private int pendingLength;
    private long line;
    private boolean skipHeader;
    private boolean ended;
    private TributaryException error;

    /** The transaction block the rows go into until its COMMIT; null outside one. */
    private final io.tributary.meta.write.TransactionWrites transaction;

    CopyFromStdin(
            Database db,
            TableDef table,
            int[] targets,
            CopyFormat format,
            Runnable cancelCheck,
            boolean awaitCommit,
            PgTimeZone zone,
            io.tributary.meta.write.TransactionWrites transaction) {
        this.db = db;
        this.transaction = transaction;
        this.zone = zone;
        this.table = table;
        this.targets = targets;
        this.cancelCheck = cancelCheck;
        this.awaitCommit = awaitCommit;
        this.fill = ColumnFill.forCopy(table, targets, db.sequences());
        this.writer = db.newTableWriter(table);
        this.skipHeader = format.header();
        this.csv = format.csv()
                ? CsvTokenizer.postgres(format.delimiter(), format.quote(), format.escape(), format.nullString())
                : null;
        this.text = format.csv() ? null : new CopyTextTokenizer(format.delimiter(), format.nullString());
        this.columns = table.columns();
        this.types = new DataType[targets.length];
        for (int i = 0; i < targets.length; i++) {
            types[i] = columns.get(targets[i]).type();
        }
    }

    @Override
    public int columnCount() {
        return targets.length;
    }

    @Override
    public void write(byte[] data) {
        if (error != null || ended) {
            return;
        }
        try {
            cancelCheck.run();
            append(data);
            int start = 0;
            int end;
            while ((end = recordEnd(start)) >= 0) {
                line(start, end - 1);
                start = end;
                if (ended) {
                    return;
                }
            }
            System.arraycopy(pending, start, pending, 0, pendingLength - start);
            pendingLength -= start;
        } catch (TributaryException e) {
            error = e;
        }
    }

    private void append(byte[] data) {
        if (pendingLength + data.length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + data.length));
        }
        System.arraycopy(data, 0, pending, pendingLength, data.length);
        pendingLength += data.length;
    }

    /**
     * The end (after its newline) of the line starting at {@code start} of {@link #pending}, or -1
     * when it is not complete yet. A CSV line ends at the first newline outside quotes.
     */
    private int recordEnd(int start) {
        if (csv != null) {
            return csv.recordEnd(pending, start, pendingLength);
        }
        for (int i = start; i < pendingLength; i++) {
            if (pending[i] == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    /** The line {@code pending[from, to)}, without its newline. */
    private void line(int from, int to) {
        line++;
        if (to > from && pending[to - 1] == '\r') {
            to--;
        }
        if (to - from == 2 && pending[from] == '\\' && pending[from + 1] == '.') {
            ended = true;
            return;
        }
        if (skipHeader) {
            skipHeader = false;
            return;
        }
        if (csv != null) {
            csvLine(new String(pending, from, to - from, StandardCharsets.UTF_8));
            return;
        }
        int count = text.split(pending, from, to);
        checkFieldCount(count);
        Object[] row = new Object[columns.size()];
        byte[] bytes = text.bytes();
        for (int i = 0; i < targets.length; i++) {
            if (!text.isNull(i)) {
                try {
                    // a timestamptz(p) column rounds what the session's zone read (PgTextFormat.parse rounds the rest)
                    row[targets[i]] = types[i].kind() == TypeKind.TIMESTAMPTZ
                            ? Values.fitDateTime(
                                    PgTextFormat.parseTimestamptz(
                                            new String(bytes, text.start(i), text.length(i), StandardCharsets.UTF_8),
                                            zone),
                                    types[i])
                            : PgTextFormat.parse(types[i], bytes, text.start(i), text.length(i));
                } catch (TributaryException e) {
                    throw inColumn(e, i);
                }
            }
        }
        fill.omitted(row);
        writer.insert(row);
    }

    private void csvLine(String record) {
        List<String> fields = new ArrayList<>(targets.length);
        csv.split(record, fields);
        checkFieldCount(fields.size());
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < targets.length; i++) {
            try {
                String field = fields.get(i);
                row[targets[i]] = types[i].kind() == TypeKind.TIMESTAMPTZ && field != null
                        ? Values.fitDateTime(PgTextFormat.parseTimestamptz(field, zone), types[i])
                        : PgTextFormat.parse(types[i], field);
            } catch (TributaryException e) {
                throw inColumn(e, i);
            }
        }
        fill.omitted(row);
        writer.insert(row);
    }

    private void checkFieldCount(int count) {
        if (count != targets.length) {
            throw new TributaryException(
                    SqlState.BAD_COPY_FILE_FORMAT,
                    (count < targets.length
                            ? "missing data for column \""
                                    + columns.get(targets[count]).name() + "\""
                            : "extra data after last expected column"),
                    0,
                    "COPY " + table.name() + ", line " + line,
                    null,
                    null);
        }
    }

    /** {@code e}, with the line and the column of target {@code i} as its context. */
    private TributaryException inColumn(TributaryException e, int i) {
        return new TributaryException(
                e.sqlState(),
                e.getMessage(),
                0,
                "COPY " + table.name() + ", line " + line + ", column "
                        + columns.get(targets[i]).name(),
                null,
                null);
    }

    @Override
    public String finish() {
        try (writer) {
            if (error == null && pendingLength > 0 && !ended) {
                try {
                    line(0, pendingLength);
                } catch (TributaryException e) {
                    error = e;
                }
            }
            if (error != null) {
                throw error;
            }
            long ticket = writer.apply(transaction, fill.sequencePositions());
            if (awaitCommit) {
                DmlRunner.awaitDurable(db, ticket);
            }
            return "COPY " + writer.count();
        }
    }

    @Override
    public void abort(String reason) {
        writer.close();
    }
}
