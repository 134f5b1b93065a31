package io.tributary.common.codec;

import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgJson;
import io.tributary.common.types.PgJsonb;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Compact row values: a null bitmap, then each non-null column in its fixed-width or
 * length-prefixed form. The layout is part of the on-disk format; a row can only be decoded with the
 * column types it was encoded with. One instance per schema; thread-safe after construction.
 */
public final class RowCodec {
    /** NUMERIC values of at most this many digits have an unscaled value that fits a long. */
    private static final int MAX_LONG_DIGITS = 18;

    private final DataType[] types;
    private final int bitmapBytes;

    public RowCodec(List<DataType> types) {
        this.types = types.toArray(new DataType[0]);
        this.bitmapBytes = (this.types.length + 7) / 8;
    }

    public int columnCount() {
        return types.length;
    }

    public byte[] encode(Object[] row) {
        return encode(row, new ByteWriter(16 + types.length * 8));
    }

    /**
     * {@link #encode(Object[])} built in {@code scratch} (reset first, left holding the encoding):
     * a caller encoding many rows reuses one buffer and allocates only the result.
     */
    public byte[] encode(Object[] row, ByteWriter scratch) {
        encodeInto(row, scratch);
        return scratch.toByteArray();
    }

    /**
     * Encodes {@code row} into {@code scratch} (reset first), leaving the bytes in {@code
     * scratch.array()[0, scratch.length())}: for a caller that copies them on itself.
     */
    public void encodeInto(Object[] row, ByteWriter scratch) {
        scratch.reset();
        ByteWriter out = scratch;
        for (int b = 0; b < bitmapBytes; b++) {
            int bits = 0;
            for (int i = b * 8; i < Math.min(types.length, b * 8 + 8); i++) {
                if (row[i] == null) {
                    bits |= 1 << (i - b * 8);
                }
            }
            out.put(bits);
        }
        for (int i = 0; i < types.length; i++) {
            if (row[i] != null) {
                encodeValue(out, types[i], row[i]);
            }
        }
    }

    private static void encodeValue(ByteWriter out, DataType type, Object v) {
        switch (type.kind()) {
            case BOOLEAN -> out.put(((Boolean) v) ? 1 : 0);
            case SMALLINT -> out.putShort((Short) v);
            case INTEGER, DATE -> out.putInt((Integer) v);
            case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> out.putLong((Long) v);
            case REAL -> out.putInt(Float.floatToRawIntBits((Float) v));
            case DOUBLE -> out.putLong(Double.doubleToRawLongBits((Double) v));
            case NUMERIC -> {
                BigDecimal d = (BigDecimal) v;
                out.putVarInt(d.scale() + 32768);
                if (d.precision() <= MAX_LONG_DIGITS) {
                    // BigInteger.toByteArray's bytes, computed without allocating it
                    long unscaled = d.scaleByPowerOfTen(d.scale()).longValue();
                    int length = (64 - Long.numberOfLeadingZeros(unscaled < 0 ? ~unscaled : unscaled)) / 8 + 1;
                    out.putVarInt(length);
                    for (int shift = (length - 1) * 8; shift >= 0; shift -= 8) {
                        out.put((int) (unscaled >>> shift));
                    }
                } else {
                    byte[] unscaled = d.unscaledValue().toByteArray();
                    out.putVarInt(unscaled.length).putBytes(unscaled);
                }
            }
            case VARCHAR, TEXT, BPCHAR -> out.putUtf8WithLength((String) v);
            case JSON, JSONB -> out.putUtf8WithLength(v.toString());
            case ARRAY -> {
                // the element count, then per element 0 for NULL or 1 and the element's encoding
                List<?> elements = (List<?>) v;
                out.putVarInt(elements.size());
                for (int i = 0; i < elements.size(); i++) {
                    Object e = elements.get(i);
                    out.put(e == null ? 0 : 1);
                    if (e != null) {
                        encodeValue(out, type.element(), e);
                    }
                }
            }
            case BYTEA -> {
                byte[] b = (byte[]) v;
                out.putVarInt(b.length).putBytes(b);
            }
            case INTERVAL -> {
                Interval iv = (Interval) v;
                out.putInt(iv.months()).putInt(iv.days()).putLong(iv.micros());
            }
            case UUID -> {
                java.util.UUID u = (java.util.UUID) v;
                out.putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
            }
        }
    }

    public Object[] decode(byte[] bytes) {
        Object[] row = new Object[types.length];
        Reader in = new Reader(bytes, bitmapBytes);
        for (int i = 0; i < types.length; i++) {
            if ((bytes[i >>> 3] & (1 << (i & 7))) == 0) {
                row[i] = decodeValue(in, types[i]);
            }
        }
        return row;
    }

    /**
     * {@link #decode}, but only the columns marked in {@code read}; the others are left null (their
     * bytes skipped without making values): for a reader that never looks at them.
     */
    public Object[] decode(byte[] bytes, boolean[] read) {
        Object[] row = new Object[types.length];
        Reader in = new Reader(bytes, bitmapBytes);
        for (int i = 0; i < types.length; i++) {
            if ((bytes[i >>> 3] & (1 << (i & 7))) == 0) {
                if (read[i]) {
                    row[i] = decodeValue(in, types[i]);
                } else {
                    skipValue(in, types[i]);
                }
            }
        }
        return row;
    }

    private static void skipValue(Reader in, DataType type) {
        switch (type.kind()) {
            case BOOLEAN -> in.pos++;
            case SMALLINT -> in.pos += 2;
            case INTEGER, DATE, REAL -> in.pos += 4;
            case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ, DOUBLE -> in.pos += 8;
            case INTERVAL, UUID -> in.pos += 16;
            case NUMERIC -> {
                in.readVarInt(); // the scale
                int length = in.readVarInt();
                in.pos += length;
            }
            case VARCHAR, TEXT, BPCHAR, JSON, JSONB, BYTEA -> {
                int n = in.readVarInt();
                in.pos += n;
            }
            case ARRAY -> {
                int n = in.readVarInt();
                for (int i = 0; i < n; i++) {
                    if (in.b[in.pos++] != 0) {
                        skipValue(in, type.element());
                    }
                }
            }
            // a kind without a case would shift every later column: fail instead
            default -> throw new IllegalArgumentException("no encoded length known for " + type);
        }
    }

    private static Object decodeValue(Reader in, DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> in.b[in.pos++] != 0;
            case SMALLINT -> (short) in.readShort();
            case INTEGER, DATE -> in.readInt();
            case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> in.readLong();
            case REAL -> Float.intBitsToFloat(in.readInt());
            case DOUBLE -> Double.longBitsToDouble(in.readLong());
            case NUMERIC -> {
                int scale = in.readVarInt() - 32768;
                int length = in.readVarInt();
                if (length <= 8) {
                    long unscaled = in.b[in.pos];
                    for (int i = 1; i < length; i++) {
                        unscaled = unscaled << 8 | (in.b[in.pos + i] & 0xff);
                    }
                    in.pos += length;
                    yield BigDecimal.valueOf(unscaled, scale);
                }
                yield new BigDecimal(new BigInteger(in.readBytes(length)), scale);
            }
            case VARCHAR, TEXT, BPCHAR -> {
                int n = in.readVarInt();
                String s = new String(in.b, in.pos, n, StandardCharsets.UTF_8);
                in.pos += n;
                yield s;
            }
            case BYTEA -> in.readBytes(in.readVarInt());
            case ARRAY -> {
                int n = in.readVarInt();
                java.util.ArrayList<Object> elements = new java.util.ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    elements.add(in.b[in.pos++] == 0 ? null : decodeValue(in, type.element()));
                }
                yield elements;
            }
            case INTERVAL -> new Interval(in.readInt(), in.readInt(), in.readLong());
            case UUID -> new java.util.UUID(in.readLong(), in.readLong());
            case JSON, JSONB -> {
                int n = in.readVarInt();
                String s = new String(in.b, in.pos, n, StandardCharsets.UTF_8);
                in.pos += n;
                yield type.kind() == io.tributary.common.types.TypeKind.JSON ? new PgJson(s) : new PgJsonb(s);
            }
        };
    }

    private static final class Reader {
        final byte[] b;
        int pos;

        Reader(byte[] b, int pos) {
            this.b = b;
            this.pos = pos;
        }

        int readShort() {
            int v = ((b[pos] & 0xff) << 8) | (b[pos + 1] & 0xff);
            pos += 2;
            return v;
        }

        int readInt() {
            int v = ((b[pos] & 0xff) << 24)
                    | ((b[pos + 1] & 0xff) << 16)
                    | ((b[pos + 2] & 0xff) << 8)
                    | (b[pos + 3] & 0xff);
            pos += 4;
            return v;
        }

        long readLong() {
            return ((long) readInt() << 32) | (readInt() & 0xffffffffL);
        }

        int readVarInt() {
            int v = 0;
            int shift = 0;
            while (true) {
                int x = b[pos++] & 0xff;
                v |= (x & 0x7f) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
                shift += 7;
            }
        }

        byte[] readBytes(int n) {
            byte[] out = new byte[n];
            System.arraycopy(b, pos, out, 0, n);
            pos += n;
            return out;
        }
    }
}
