package io.tributary.server.session;

import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.CsvTokenizer;
import io.tributary.common.types.PgTextFormat;
import io.tributary.meta.Database;
import io.tributary.meta.write.TableWriter;
import io.tributary.sql.UtilityStatement.CopyFormat;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code COPY t FROM STDIN} in PostgreSQL's text and CSV formats (CSV read by {@link
 * CsvTokenizer#postgres}). Rows are parsed as data arrives and staged in a {@link TableWriter};
 * nothing is applied until {@link #finish}, so a bad line or an aborted copy leaves the table
 * untouched. The first error is kept and reported by finish, and
 * later data is ignored. Session thread only.
 */
final class CopyFromStdin implements CopyInSink {
    private final Database db;
    private final TableDef table;
    private final int[] targets;
    private final CopyFormat format;
    private final TableWriter writer;
    private final Runnable cancelCheck;
    private final boolean awaitCommit;
    /** Values of the identity and SERIAL columns the COPY leaves out. */
    private final ColumnFill fill;
    /** The CSV dialect, or null for the text format. */
    private final CsvTokenizer csv;
    /** Bytes received after the last complete line: {@code pending[0, pendingLength)}. */
    private byte[] pending = new byte[8192];

    private int pendingLength;
    private long line;
    private boolean skipHeader;
    private boolean ended;
    private TributaryException error;

    CopyFromStdin(
            Database db, TableDef table, int[] targets, CopyFormat format, Runnable cancelCheck, boolean awaitCommit) {
        this.db = db;
        this.table = table;
        this.targets = targets;
        this.format = format;
        this.cancelCheck = cancelCheck;
        this.awaitCommit = awaitCommit;
        this.fill = ColumnFill.forCopy(table, targets, db.sequences());
        this.writer = db.newTableWriter(table);
        this.skipHeader = format.header();
        this.csv = format.csv()
                ? CsvTokenizer.postgres(format.delimiter(), format.quote(), format.escape(), format.nullString())
                : null;
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
                line(new String(pending, start, end - 1 - start, StandardCharsets.UTF_8));
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

    private void line(String raw) {
        line++;
        String text = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
        if (text.equals("\\.")) {
            ended = true;
            return;
        }
        if (skipHeader) {
            skipHeader = false;
            return;
        }
        List<String> fields;
        if (csv != null) {
            fields = new ArrayList<>(targets.length);
            csv.split(text, fields);
        } else {
            fields = textFields(text);
        }
        if (fields.size() != targets.length) {
            throw new TributaryException(
                    SqlState.BAD_COPY_FILE_FORMAT,
                    (fields.size() < targets.length
                            ? "missing data for column \""
                                    + table.columns()
                                            .get(targets[fields.size()])
                                            .name() + "\""
                            : "extra data after last expected column"),
                    0,
                    "COPY " + table.name() + ", line " + line,
                    null,
                    null);
        }
        Object[] row = new Object[table.columns().size()];
        for (int i = 0; i < targets.length; i++) {
            try {
                row[targets[i]] =
                        PgTextFormat.parse(table.columns().get(targets[i]).type(), fields.get(i));
            } catch (TributaryException e) {
                throw new TributaryException(
                        e.sqlState(),
                        e.getMessage(),
                        0,
                        "COPY " + table.name() + ", line " + line + ", column "
                                + table.columns().get(targets[i]).name(),
                        null,
                        null);
            }
        }
        fill.omitted(row);
        writer.insert(row);
    }

    /** Text format: delimiter-separated, backslash escapes, {@code \N} (or the NULL option) for NULL. */
    private List<String> textFields(String text) {
        List<String> out = new ArrayList<>(targets.length);
        StringBuilder field = new StringBuilder();
        boolean escaped = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == format.delimiter()) {
                out.add(textValue(field.toString(), escaped));
                field.setLength(0);
                escaped = false;
            } else if (c == '\\' && i + 1 < text.length()) {
                char e = text.charAt(++i);
                if (e == 'N' && format.nullString().equals("\\N")) {
                    field.append("\\N");
                    continue;
                }
                escaped = true;
                field.append(
                        switch (e) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            case 'r' -> '\r';
                            case 'b' -> '\b';
                            case 'f' -> '\f';
                            case 'v' -> '\u000b';
                            default -> e;
                        });
            } else {
                field.append(c);
            }
        }
        out.add(textValue(field.toString(), escaped));
        return out;
    }

    private String textValue(String field, boolean escaped) {
        return !escaped && field.equals(format.nullString()) ? null : field;
    }

    @Override
    public String finish() {
        try (writer) {
            if (error == null && pendingLength > 0 && !ended) {
                try {
                    line(new String(pending, 0, pendingLength, StandardCharsets.UTF_8));
                } catch (TributaryException e) {
                    error = e;
                }
            }
            if (error != null) {
                throw error;
            }
            long ticket = writer.apply(fill.sequencePositions());
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
