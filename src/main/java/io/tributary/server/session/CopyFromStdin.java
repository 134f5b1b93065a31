package io.tributary.server.session;

import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.PgTextFormat;
import io.tributary.meta.Database;
import io.tributary.meta.write.TableWriter;
import io.tributary.sql.UtilityStatement.CopyFormat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code COPY t FROM STDIN} in PostgreSQL's text and CSV formats. Rows are parsed as data arrives
 * and staged in a {@link TableWriter}; nothing is applied until {@link #finish}, so a bad line or
 * an aborted copy leaves the table untouched. The first error is kept and reported by finish, and
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
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private long line;
    private boolean skipHeader;
    private boolean ended;
    private TributaryException error;

    CopyFromStdin(Database db, TableDef table, int[] targets, CopyFormat format, Runnable cancelCheck,
            boolean awaitCommit) {
        this.db = db;
        this.table = table;
        this.targets = targets;
        this.format = format;
        this.cancelCheck = cancelCheck;
        this.awaitCommit = awaitCommit;
        this.writer = db.newTableWriter(table);
        this.skipHeader = format.header();
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
            int start = 0;
            for (int i = 0; i < data.length; i++) {
                if (data[i] == '\n') {
                    pending.write(data, start, i - start);
                    start = i + 1;
                    if (!format.csv() || quotesBalanced(pending.toByteArray())) {
                        line(pending.toString(StandardCharsets.UTF_8));
                        pending.reset();
                        if (ended) {
                            return;
                        }
                    } else {
                        pending.write('\n');
                    }
                }
            }
            pending.write(data, start, data.length - start);
        } catch (TributaryException e) {
            error = e;
        }
    }

    private boolean quotesBalanced(byte[] text) {
        int quotes = 0;
        for (byte b : text) {
            if (b == format.quote()) {
                quotes++;
            }
        }
        return quotes % 2 == 0;
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
        List<String> fields = format.csv() ? csvFields(text) : textFields(text);
        if (fields.size() != targets.length) {
            throw new TributaryException(SqlState.BAD_COPY_FILE_FORMAT,
                    (fields.size() < targets.length ? "missing data for column \"" + table.columns()
                            .get(targets[fields.size()]).name() + "\"" : "extra data after last expected column"),
                    0, "COPY " + table.name() + ", line " + line, null, null);
        }
        Object[] row = new Object[table.columns().size()];
        for (int i = 0; i < targets.length; i++) {
            try {
                row[targets[i]] = PgTextFormat.parse(table.columns().get(targets[i]).type(), fields.get(i));
            } catch (TributaryException e) {
                throw new TributaryException(e.sqlState(), e.getMessage(), 0, "COPY " + table.name() + ", line "
                        + line + ", column " + table.columns().get(targets[i]).name(), null, null);
            }
        }
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
                field.append(switch (e) {
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

    /** CSV: quoted fields may hold delimiters, doubled quotes and newlines; an unquoted NULL string is NULL. */
    private List<String> csvFields(String text) {
        List<String> out = new ArrayList<>(targets.length);
        StringBuilder field = new StringBuilder();
        boolean inQuotes = false;
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inQuotes) {
                if (c == format.escape() && i + 1 < text.length() && text.charAt(i + 1) == format.quote()) {
                    field.append(format.quote());
                    i++;
                } else if (c == format.quote()) {
                    inQuotes = false;
                } else {
                    field.append(c);
                }
            } else if (c == format.quote()) {
                inQuotes = true;
                quoted = true;
            } else if (c == format.delimiter()) {
                out.add(!quoted && field.toString().equals(format.nullString()) ? null : field.toString());
                field.setLength(0);
                quoted = false;
            } else {
                field.append(c);
            }
        }
        out.add(!quoted && field.toString().equals(format.nullString()) ? null : field.toString());
        return out;
    }

    @Override
    public String finish() {
        try (writer) {
            if (error == null && pending.size() > 0 && !ended) {
                try {
                    line(pending.toString(StandardCharsets.UTF_8));
                } catch (TributaryException e) {
                    error = e;
                }
            }
            if (error != null) {
                throw error;
            }
            long ticket = writer.apply();
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
