package io.tributary.meta.sink;

import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.postgresql.copy.CopyIn;

/**
 * Builds the body of a {@code COPY ... FROM STDIN} in PostgreSQL's text format, as UTF-8 bytes: one
 * line per row, tab-separated, {@code \N} for NULL, backslash escapes for the characters the
 * format reserves, values in PostgreSQL's text output format, and (for the staging table) the
 * change's operation as the last field. A sink uses it for relations {@link CopyBinary} cannot
 * write (stored rows are decoded first). One delivery thread; reused across batches.
 */
final class CopyText implements CopyBody {
    private final List<DataType> types;
    private final int[] columns;
    private final int[] keyColumns;
    private final boolean withOp;
    private final RowCodec codec;
    /** By relation column: whether it is SMALLINT, INTEGER or BIGINT. */
    private final boolean[] integral;

    private static final byte[] LONG_MIN = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);

    private byte[] buf = new byte[1 << 16];
    private int len;
    private int rows;

    /**
     * @param types the relation's column types
     * @param columns the relation's column indexes to write, in the staging table's order
     * @param keyColumns the relation's column indexes a deletion writes
     * @param withOp whether each line ends with the change's operation (for the staging table)
     *     or not (for a COPY straight into the target)
     */
    CopyText(List<DataType> types, int[] columns, int[] keyColumns, boolean withOp) {
        this.types = types;
        this.columns = columns;
        this.keyColumns = keyColumns;
        this.withOp = withOp;
        this.codec = new RowCodec(types);
        this.integral = new boolean[types.size()];
        for (int i = 0; i < integral.length; i++) {
            TypeKind kind = types.get(i).kind();
            integral[i] = kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
        }
    }

    @Override
    public String options() {
        return "";
    }

    /** Text has no header: forgets the buffered lines and the row count. */
    @Override
    public void start() {
        len = 0;
        rows = 0;
    }

    @Override
    public void add(byte[] encoded, char op) {
        add(codec.decode(encoded), op);
    }

    @Override
    public void addDelete(byte[] encoded) {
        deleteLine(codec.decode(encoded));
    }

    /** Text has no trailer. */
    @Override
    public void finish() {}

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public void drainTo(CopyIn copy) throws SQLException {
        if (len > 0) {
            copy.writeToCopy(buf, 0, len);
            len = 0;
        }
    }

    /** Appends {@code row} (full width, canonical values) with operation {@code op}. */
    void add(Object[] row, char op) {
        for (int i = 0; i < columns.length; i++) {
            int c = columns[i];
            if (i > 0) {
                put((byte) '\t');
            }
            Object v = row[c];
            if (v == null) {
                put((byte) '\\');
                put((byte) 'N');
            } else if (integral[c]) {
                // PostgreSQL's text form of an integer is its decimal digits: no String per value
                putDecimal(((Number) v).longValue());
            } else {
                escape(PgTextFormat.format(types.get(c), v));
            }
        }
        endLine(op);
    }

    /** Appends a deletion of the row with {@code row}'s key: only the key columns are written. */
    private void deleteLine(Object[] keyRow) {
        for (int i = 0; i < columns.length; i++) {
            int c = columns[i];
            if (i > 0) {
                put((byte) '\t');
            }
            boolean isKey = false;
            for (int k : keyColumns) {
                isKey |= k == c;
            }
            if (isKey && keyRow[c] != null) {
                escape(PgTextFormat.format(types.get(c), keyRow[c]));
            } else {
                put((byte) '\\');
                put((byte) 'N');
            }
        }
        endLine('D');
    }

    /** The text so far; a copy, since the buffer is reused. */
    @Override
    public byte[] bytes() {
        return Arrays.copyOf(buf, len);
    }

    private void endLine(char op) {
        if (withOp) {
            put((byte) '\t');
            put((byte) op);
        }
        put((byte) '\n');
        rows++;
    }

    private void put(byte b) {
        if (len == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        buf[len++] = b;
    }

    /** Appends {@code n} in decimal, as {@link Long#toString(long)} writes it. */
    private void putDecimal(long n) {
        if (n == Long.MIN_VALUE) {
            for (int i = 0; i < LONG_MIN.length; i++) {
                put(LONG_MIN[i]);
            }
            return;
        }
        if (n < 0) {
            put((byte) '-');
            n = -n;
        }
        int digits = 1;
        for (long rest = n / 10; rest > 0; rest /= 10) {
            digits++;
        }
        if (len + digits > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + digits));
        }
        for (int i = len + digits - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + n % 10);
            n /= 10;
        }
        len += digits;
    }

    private void escape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch >= 0x80) {
                // the rest of the value has non-ASCII characters: encode it whole
                for (byte b : s.substring(i).getBytes(StandardCharsets.UTF_8)) {
                    escaped(b);
                }
                return;
            }
            escaped((byte) ch);
        }
    }

    /** One byte of a value in COPY's text format: backslash, tab, newline and CR are escaped. */
    private void escaped(byte b) {
        switch (b) {
            case '\\' -> {
                put((byte) '\\');
                put((byte) '\\');
            }
            case '\t' -> {
                put((byte) '\\');
                put((byte) 't');
            }
            case '\n' -> {
                put((byte) '\\');
                put((byte) 'n');
            }
            case '\r' -> {
                put((byte) '\\');
                put((byte) 'r');
            }
            default -> put(b);
        }
    }
}
