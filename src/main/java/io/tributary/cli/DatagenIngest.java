package io.tributary.cli;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.connector.Source;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SplitReader;
import io.tributary.connector.datagen.DatagenConnector;
import java.io.Reader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code bench ingest --source datagen}: a sequence key and seeded random group, amount and name
 * columns at an unlimited rate. PostgreSQL copies the same rows, made by the same generator. The
 * other workloads feed their sources these rows too ({@link #text}).
 */
final class DatagenIngest implements IngestWorkload {
    private static final List<SourceColumn> COLUMNS = List.of(
            new SourceColumn("id", DataType.BIGINT),
            new SourceColumn("g", DataType.INTEGER),
            new SourceColumn("v", DataType.DOUBLE),
            new SourceColumn("name", DataType.varchar(12)));

    @Override
    public String name() {
        return "datagen";
    }

    /** The columns of every ingest workload's table. */
    static final String COLUMNS_SQL = "(id BIGINT PRIMARY KEY, g INT, v DOUBLE PRECISION, name VARCHAR(12))";

    @Override
    public String columns() {
        return COLUMNS_SQL;
    }

    private static Map<String, String> options(long rows, int splits) {
        Map<String, String> o = new TreeMap<>();
        o.put("fields.id.kind", "sequence");
        o.put("fields.id.end", Long.toString(rows));
        o.put("fields.g.start", "0");
        o.put("fields.g.end", "99");
        o.put("fields.g.seed", "1");
        o.put("fields.v.start", "-1000");
        o.put("fields.v.end", "1000");
        o.put("fields.v.seed", "2");
        o.put("fields.name.length", "12");
        o.put("fields.name.seed", "3");
        o.put("datagen.rows.per.second", "1000000000000");
        o.put("datagen.split.num", Integer.toString(splits));
        return o;
    }

    @Override
    public String prepare(Path workDir, String table, long rows, int splits) {
        StringBuilder with = new StringBuilder("WITH (connector = 'datagen'");
        options(rows, splits)
                .forEach((k, v) ->
                        with.append(", ").append(k).append(" = '").append(v).append('\''));
        return with.append(')').toString();
    }

    @Override
    public Reader copyInput(long rows) {
        return text(rows, '\t');
    }

    @Override
    public String method() {
        return "tributary: CREATE TABLE ... WITH (connector = 'datagen') until every row is committed (the view in the"
                + " same epochs); postgresql: COPY FROM STDIN of the same rows (+ REFRESH MATERIALIZED VIEW)";
    }

    /**
     * The generator's first {@code rows} rows, made by a datagen source opened here, one line each
     * with the fields in PostgreSQL's text form separated by {@code delimiter}. No value is NULL or
     * holds a tab, comma, quote or newline (numbers and letters only), so with {@code '\t'} this is
     * COPY text and with {@code ','} it is CSV.
     */
    static Reader text(long rows, char delimiter) {
        Source source = new DatagenConnector()
                .open(new SourceContext(0, "bench", COLUMNS, new int[] {0}, options(rows, 1), null, null));
        SplitReader reader = source.reader("0", null);
        return new Reader() {
            private final StringBuilder chunk = new StringBuilder();
            private int at;

            @Override
            public int read(char[] buf, int off, int len) {
                if (at == chunk.length() && !refill()) {
                    return -1;
                }
                int n = Math.min(len, chunk.length() - at);
                chunk.getChars(at, at + n, buf, off);
                at += n;
                return n;
            }

            private boolean refill() {
                chunk.setLength(0);
                at = 0;
                List<SourceChange> changes;
                try {
                    changes = reader.poll(0, 1024).changes();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                for (SourceChange c : changes) {
                    for (int i = 0; i < COLUMNS.size(); i++) {
                        if (i > 0) {
                            chunk.append(delimiter);
                        }
                        chunk.append(PgTextFormat.format(COLUMNS.get(i).type(), c.row()[i]));
                    }
                    chunk.append('\n');
                }
                return !changes.isEmpty();
            }

            @Override
            public void close() {
                reader.close();
                source.close();
            }
        };
    }
}
