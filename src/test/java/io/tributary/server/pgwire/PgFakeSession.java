package io.tributary.server.pgwire;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.server.session.ColumnDesc;
import io.tributary.server.session.CopyInSink;
import io.tributary.server.session.PreparedStatement;
import io.tributary.server.session.RowCursor;
import io.tributary.server.session.Session;
import io.tributary.server.session.SessionFactory;
import io.tributary.server.session.StatementResult;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scripted {@link Session} for protocol tests: it recognises a handful of statement shapes and
 * returns fixed results, so the tests exercise only the wire layer.
 *
 * <ul>
 *   <li>{@code select 1} - one INTEGER row
 *   <li>{@code select * from gen(N)} - rows 1..N of INTEGER column {@code n}
 *   <li>{@code select types} - one row with a value of every type
 *   <li>{@code echo $1, $2 ...} - one row echoing the parameters (unknown types as TEXT)
 *   <li>{@code insert ...} - "INSERT 0 1", recorded in {@link #executed}
 *   <li>{@code copy ... from stdin} - COPY IN into {@link #copied}
 *   <li>{@code begin}/{@code commit}/{@code rollback} - transaction status
 *   <li>{@code set name = value} - reports a changed parameter
 *   <li>{@code notice} - sends a NOTICE
 *   <li>{@code sleep} - blocks until {@link #cancel()}, then fails with 57014
 *   <li>{@code boom} - a non-Tributary exception (internal error)
 *   <li>anything else - syntax error 42601 at position 1
 * </ul>
 */
final class PgFakeSession implements Session {
    private static final Pattern PARAM = Pattern.compile("\\$(\\d+)");
    private static final Pattern GEN = Pattern.compile("select \\* from gen\\((\\d+)\\)");

    /** Every executed statement with its parameters, e.g. "insert into t values ($1)[7]". */
    final List<String> executed = new CopyOnWriteArrayList<>();

    final ByteArrayOutputStream copied = new ByteArrayOutputStream();
    volatile boolean closed;
    volatile String copyAbortReason;
    private volatile CountDownLatch cancelled = new CountDownLatch(1);
    private final CountDownLatch sleeping;
    private Consumer<Notice> noticeSink;
    private char transactionStatus = 'I';
    private Map<String, String> changed = Map.of();

    PgFakeSession(CountDownLatch sleeping) {
        this.sleeping = sleeping;
    }

    static SessionFactory factory(List<PgFakeSession> opened, CountDownLatch sleeping) {
        return (user, database, params) -> {
            if (database.equals("missing")) {
                throw new TributaryException("3D000", "database \"missing\" does not exist");
            }
            PgFakeSession s = new PgFakeSession(sleeping);
            opened.add(s);
            return s;
        };
    }

    @Override
    public List<QueryStatement> splitStatements(String text) {
        List<QueryStatement> out = new ArrayList<>();
        int start = 0;
        for (String s : text.split(";", -1)) {
            if (!s.isBlank()) {
                int end = start + s.length();
                int leading = s.length() - s.stripLeading().length();
                out.add(new QueryStatement(s.trim(), start + leading, end < text.length() ? end : -1));
            }
            start += s.length() + 1;
        }
        return out;
    }

    @Override
    public PreparedStatement prepare(String sql, List<DataType> declared) {
        String lower = sql.trim().toLowerCase(Locale.ROOT);
        int params = 0;
        Matcher m = PARAM.matcher(sql);
        while (m.find()) {
            params = Math.max(params, Integer.parseInt(m.group(1)));
        }
        List<DataType> types = new ArrayList<>();
        for (int i = 0; i < params; i++) {
            types.add(i < declared.size() ? declared.get(i) : null);
        }
        List<ColumnDesc> columns = null;
        if (lower.equals("select 1")) {
            columns = List.of(new ColumnDesc("?column?", DataType.INTEGER));
        } else if (GEN.matcher(lower).matches()) {
            columns = List.of(new ColumnDesc("n", DataType.INTEGER));
        } else if (lower.equals("select types")) {
            columns = typeColumns();
        } else if (lower.startsWith("echo")) {
            columns = new ArrayList<>();
            for (int i = 0; i < params; i++) {
                DataType t = types.get(i);
                columns.add(new ColumnDesc("c" + (i + 1), t == null ? DataType.TEXT : t));
            }
        } else if (!(lower.startsWith("insert")
                || lower.startsWith("copy")
                || lower.equals("begin")
                || lower.equals("commit")
                || lower.equals("rollback")
                || lower.startsWith("set")
                || lower.equals("notice")
                || lower.equals("sleep")
                || lower.equals("boom"))) {
            throw new TributaryException(
                    SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"" + sql + "\"",
                    1,
                    null,
                    "check the fake grammar",
                    null);
        }
        List<ColumnDesc> resultColumns = columns;
        List<DataType> exposed = Collections.unmodifiableList(types);
        return new PreparedStatement() {
            @Override
            public String sql() {
                return sql;
            }

            @Override
            public List<DataType> paramTypes() {
                return exposed;
            }

            @Override
            public List<ColumnDesc> resultColumns() {
                return resultColumns;
            }

            @Override
            public void close() {
                // nothing to release: the fake session plans nothing
            }
        };
    }

    static List<ColumnDesc> typeColumns() {
        return List.of(
                new ColumnDesc("b", DataType.BOOLEAN),
                new ColumnDesc("i2", DataType.SMALLINT),
                new ColumnDesc("i4", DataType.INTEGER),
                new ColumnDesc("i8", DataType.BIGINT),
                new ColumnDesc("f4", DataType.REAL),
                new ColumnDesc("f8", DataType.DOUBLE),
                new ColumnDesc("num", DataType.numeric(12, 3)),
                new ColumnDesc("t", DataType.TEXT),
                new ColumnDesc("v", DataType.varchar(10)),
                new ColumnDesc("by", DataType.BYTEA),
                new ColumnDesc("d", DataType.DATE),
                new ColumnDesc("tm", DataType.TIME),
                new ColumnDesc("ts", DataType.TIMESTAMP),
                new ColumnDesc("tz", DataType.TIMESTAMPTZ),
                new ColumnDesc("iv", DataType.INTERVAL));
    }

    static Object[] typeRow() {
        return new Object[] {
            true,
            (short) -7,
            42,
            1L << 40,
            1.5f,
            -2.25d,
            new BigDecimal("-12345.678"),
            "héllo",
            "v",
            new byte[] {1, 2, (byte) 0xff},
            19_000,
            3_723_000_001L,
            1_700_000_000_123_456L,
            1_700_000_000_000_000L,
            new Interval(14, 3, 5_000_000L)
        };
    }

    @Override
    public StatementResult execute(PreparedStatement statement, List<Object> params) {
        String sql = statement.sql().trim();
        String lower = sql.toLowerCase(Locale.ROOT);
        executed.add(params.isEmpty() ? sql : sql + params);
        Matcher gen = GEN.matcher(lower);
        if (lower.equals("select 1")) {
            return rows(statement, List.<Object[]>of(new Object[] {1}));
        } else if (gen.matches()) {
            int n = Integer.parseInt(gen.group(1));
            List<Object[]> rows = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                rows.add(new Object[] {i});
            }
            return rows(statement, rows);
        } else if (lower.equals("select types")) {
            return rows(statement, List.<Object[]>of(typeRow()));
        } else if (lower.startsWith("echo")) {
            return rows(statement, List.<Object[]>of(params.toArray()));
        } else if (lower.startsWith("insert")) {
            return new StatementResult.Command("INSERT 0 1");
        } else if (lower.startsWith("copy")) {
            return new StatementResult.CopyIn(new Sink());
        } else if (lower.equals("begin")) {
            transactionStatus = 'T';
            return new StatementResult.Command("BEGIN");
        } else if (lower.equals("commit") || lower.equals("rollback")) {
            transactionStatus = 'I';
            return new StatementResult.Command(lower.toUpperCase(Locale.ROOT));
        } else if (lower.startsWith("set")) {
            changed = Map.of(
                    "application_name", sql.substring(sql.indexOf('=') + 1).trim());
            return new StatementResult.Command("SET");
        } else if (lower.equals("notice")) {
            noticeSink.accept(new Notice("NOTICE", "00000", "hello from the engine"));
            return new StatementResult.Command("DO");
        } else if (lower.equals("sleep")) {
            sleeping.countDown();
            try {
                if (!cancelled.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never cancelled");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            cancelled = new CountDownLatch(1);
            throw new TributaryException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        }
        throw new IllegalStateException("boom: fake engine failure");
    }

    private static StatementResult rows(PreparedStatement statement, List<Object[]> rows) {
        return new StatementResult.Rows(statement.resultColumns(), new ListCursor(rows));
    }

    @Override
    public void cancel() {
        cancelled.countDown();
    }

    @Override
    public void connectionLost() {
        cancelled.countDown();
    }

    @Override
    public void endStatement() {
        // the fake has no statement timeout to stop
    }

    @Override
    public char transactionStatus() {
        return transactionStatus;
    }

    @Override
    public void setNoticeSink(Consumer<Notice> sink) {
        this.noticeSink = sink;
    }

    @Override
    public io.tributary.common.types.PgTimeZone timeZone() {
        return io.tributary.common.types.PgTimeZone.UTC;
    }

    @Override
    public Map<String, String> parameterStatus() {
        return Map.of(
                "server_version",
                "15.0",
                "client_encoding",
                "UTF8",
                "DateStyle",
                "ISO, MDY",
                "integer_datetimes",
                "on",
                "standard_conforming_strings",
                "on",
                "TimeZone",
                "UTC");
    }

    @Override
    public Map<String, String> drainChangedParameters() {
        Map<String, String> out = changed;
        changed = Map.of();
        return out;
    }

    @Override
    public void close() {
        closed = true;
    }

    private final class Sink implements CopyInSink {
        @Override
        public int columnCount() {
            return 2;
        }

        @Override
        public void write(byte[] data) {
            copied.writeBytes(data);
        }

        @Override
        public String finish() {
            long lines = new String(copied.toByteArray(), StandardCharsets.UTF_8)
                    .lines()
                    .count();
            return "COPY " + lines;
        }

        @Override
        public void abort(String reason) {
            copyAbortReason = reason;
        }
    }

    /** Serves rows from a list; tracks closing so tests can check cursors are released. */
    static final class ListCursor implements RowCursor {
        private final List<Object[]> rows;
        private int next;

        ListCursor(List<Object[]> rows) {
            this.rows = rows;
        }

        @Override
        public List<Object[]> fetch(int maxRows) {
            int end = maxRows == 0 ? rows.size() : Math.min(rows.size(), next + maxRows);
            List<Object[]> out = new ArrayList<>(rows.subList(next, end));
            next = end;
            return out;
        }

        @Override
        public boolean exhausted() {
            return next >= rows.size();
        }

        @Override
        public void close() {
            next = rows.size();
        }
    }
}
