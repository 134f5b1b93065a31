package io.tributary.meta.sink;

import io.tributary.common.types.DataType;
import io.tributary.common.types.InfiniteDateTimes;
import io.tributary.common.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.postgresql.copy.CopyIn;

/**
 * A COPY body in PostgreSQL's binary format, written straight from stored rows: the relation's
 * {@code RowCodec} encoding already holds most values as PostgreSQL's binary form does (big-endian
 * integers and float bits, UTF-8 text, raw bytes), so a row costs a walk over its bytes and no
 * objects. Dates and timestamps move from the Unix epoch to PostgreSQL's (2000-01-01); an interval's
 * three fields are reordered. The target parses no text either, which is why the snapshot uses it.
 * NUMERIC and JSONB have no such form here ({@link #supports}); a relation writing one uses {@link CopyText}.
 * One delivery thread; reused across COPYs.
 */
final class CopyBinary implements CopyBody {

    /** The signature, then the flags (no OIDs) and the header extension's length, both zero. */
    private static final byte[] HEADER =
            Arrays.copyOf("PGCOPY\n\u00ff\r\n\0".getBytes(StandardCharsets.ISO_8859_1), 19);

    private final TypeKind[] kinds;
    private final int bitmapBytes;
    /** By relation column: whether the body has it (the target's columns, in relation order). */
    private final boolean[] written;
    /** By relation column: whether it is part of the key a deletion keeps. */
    private final boolean[] key;

    private final short fields;
    private final boolean withOp;
    /** Whether each row ends with its primary key as bytea (a worker's snapshot piece, {@link SnapshotChunk}). */
    private final boolean withKey;

    private byte[] buf = new byte[1 << 16];
    private int len;
    private int rows;

    /**
     * @param types the relation's column types
     * @param columns the relation's column indexes to write, ascending (the target's columns are
     *     the relation's visible ones in order)
     * @param keyColumns the relation's column indexes a deletion writes
     * @param withOp whether each row ends with the change's operation (for the staging table)
     * @throws IllegalArgumentException when a written column has no binary form here (see {@link #supports})
     */
    CopyBinary(List<DataType> types, int[] columns, int[] keyColumns, boolean withOp) {
        this(types, columns, keyColumns, withOp, false);
    }

    /**
     * Like {@link #CopyBinary(List, int[], int[], boolean)}; with {@code withKey} each row (added by
     * {@link #addKeyed}) ends with the operation and then the row's primary key as bytea.
     */
    CopyBinary(List<DataType> types, int[] columns, int[] keyColumns, boolean withOp, boolean withKey) {
        if (!supports(types, columns)) {
            throw new IllegalArgumentException("a written column has no binary COPY form here");
        }
        this.kinds = new TypeKind[types.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = types.get(i).kind();
        }
        this.bitmapBytes = (kinds.length + 7) / 8;
        this.written = new boolean[kinds.length];
        for (int n = 0; n < columns.length; n++) {
            if (n > 0 && columns[n] <= columns[n - 1]) {
                throw new IllegalArgumentException("written columns must ascend: " + Arrays.toString(columns));
            }
            written[columns[n]] = true;
        }
        this.key = new boolean[kinds.length];
        for (int k : keyColumns) {
            key[k] = true;
        }
        this.fields = (short) (columns.length + (withOp ? 1 : 0) + (withKey ? 1 : 0));
        this.withOp = withOp;
        this.withKey = withKey;
    }

    /**
     * Whether every column in {@code columns} has a binary form this class writes (all but NUMERIC
     * and JSONB) and no column of the table is an array.
     */
    static boolean supports(List<DataType> types, int[] columns) {
        for (DataType t : types) {
            // an array's stored form is not walked here, written or not
            if (t.kind() == TypeKind.ARRAY) {
                return false;
            }
        }
        for (int c : columns) {
            // jsonb's binary form adds a version byte the stored text lacks
            if (types.get(c).kind() == TypeKind.NUMERIC || types.get(c).kind() == TypeKind.JSONB) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String options() {
        return " (FORMAT binary)";
    }

    @Override
    public void start() {
        len = 0;
        rows = 0;
        room(HEADER.length);
        System.arraycopy(HEADER, 0, buf, 0, HEADER.length);
        len = HEADER.length;
    }

    @Override
    public void add(byte[] encoded, char op) {
        row(encoded, false, op);
    }

    @Override
    public void addDelete(byte[] encoded) {
        row(encoded, true, 'D');
    }

    /** Appends the stored row {@code encoded} with operation {@code op} and its primary key {@code pk} (bytea). */
    void addKeyed(byte[] encoded, char op, byte[] pk) {
        keyed = pk;
        row(encoded, false, op);
    }

    /** The primary key {@link #row} appends when {@link #withKey}. */
    private byte[] keyed;

    @Override
    public void finish() {
        putShort(-1);
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public byte[] bytes() {
        return Arrays.copyOf(buf, len);
    }

    @Override
    public void drainTo(CopyIn copy) throws SQLException {
        if (len > 0) {
            copy.writeToCopy(buf, 0, len);
            len = 0;
        }
    }

    /** One tuple: walks every stored column (to find where the next starts), writing the target's. */
    private void row(byte[] in, boolean keyOnly, char op) {
        putShort(fields);
        int pos = bitmapBytes;
        for (int i = 0; i < kinds.length; i++) {
            if ((in[i >>> 3] & (1 << (i & 7))) != 0) {
                if (written[i]) {
                    putInt(-1);
                }
                continue;
            }
            int start = pos;
            switch (kinds[i]) {
                case BOOLEAN -> pos += 1;
                case SMALLINT -> pos += 2;
                case INTEGER, REAL, DATE -> pos += 4;
                case BIGINT, TIME, DOUBLE, TIMESTAMP, TIMESTAMPTZ -> pos += 8;
                case INTERVAL, UUID -> pos += 16;
                case VARCHAR, TEXT, BPCHAR, BYTEA, JSON, JSONB -> {
                    int n = 0;
                    for (int shift = 0; ; shift += 7) {
                        int b = in[pos++] & 0xff;
                        n |= (b & 0x7f) << shift;
                        if ((b & 0x80) == 0) {
                            break;
                        }
                    }
                    start = pos;
                    pos += n;
                }
                case ARRAY -> throw new IllegalStateException("supports refuses array columns");
                case NUMERIC -> {
                    // never written (see supports), only skipped: the scale varint, then length and bytes
                    while ((in[pos++] & 0x80) != 0) {
                        // continuation bytes of the scale
                    }
                    int n = 0;
                    for (int shift = 0; ; shift += 7) {
                        int b = in[pos++] & 0xff;
                        n |= (b & 0x7f) << shift;
                        if ((b & 0x80) == 0) {
                            break;
                        }
                    }
                    pos += n;
                }
            }
            if (!written[i]) {
                continue;
            }
            if (keyOnly && !key[i]) {
                putInt(-1);
                continue;
            }
            switch (kinds[i]) {
                case DATE -> {
                    putInt(4);
                    putInt(InfiniteDateTimes.toPostgresDays(readInt(in, start)));
                }
                case TIMESTAMP, TIMESTAMPTZ -> {
                    putInt(8);
                    putLong(InfiniteDateTimes.toPostgresMicros(readLong(in, start)));
                }
                case INTERVAL -> {
                    // stored months, days, micros; PostgreSQL's order is micros, days, months
                    putInt(16);
                    room(16);
                    System.arraycopy(in, start + 8, buf, len, 8);
                    System.arraycopy(in, start + 4, buf, len + 8, 4);
                    System.arraycopy(in, start, buf, len + 12, 4);
                    len += 16;
                }
                default -> {
                    // the stored bytes are PostgreSQL's binary form already
                    int n = pos - start;
                    putInt(n);
                    room(n);
                    System.arraycopy(in, start, buf, len, n);
                    len += n;
                }
            }
        }
        if (withOp) {
            putInt(1);
            room(1);
            buf[len++] = (byte) op;
        }
        if (withKey) {
            putInt(keyed.length);
            room(keyed.length);
            System.arraycopy(keyed, 0, buf, len, keyed.length);
            len += keyed.length;
        }
        rows++;
    }

    private static int readInt(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }

    private static long readLong(byte[] b, int at) {
        return ((long) readInt(b, at) << 32) | (readInt(b, at + 4) & 0xffffffffL);
    }

    private void room(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    private void putShort(int v) {
        room(2);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
    }

    private void putInt(int v) {
        room(4);
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
    }

    private void putLong(long v) {
        putInt((int) (v >>> 32));
        putInt((int) v);
    }
}
