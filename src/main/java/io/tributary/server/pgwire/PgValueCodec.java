package io.tributary.server.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.InfiniteDateTimes;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgArrayLiteral;
import io.tributary.common.types.PgJsonText;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import io.tributary.common.types.TypeKind;
import io.tributary.common.types.Values;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts canonical values (see {@link io.tributary.common.types.TypeKind}) to and from the wire:
 * format code 0 is PostgreSQL's text format ({@link PgTextFormat}), 1 its binary send/recv format.
 * Stateless; callable from any thread.
 */
final class PgValueCodec {
    static final short TEXT = 0;
    static final short BINARY = 1;

    private PgValueCodec() {}

    /**
     * Appends {@code int32 length} and the encoded value, or length -1 for NULL; a text
     * timestamptz is printed in {@code zone} (binary ones are instants, as PostgreSQL sends them).
     */
    static void writeValue(ByteBuf buf, DataType type, Object value, short format, PgTimeZone zone) {
        if (value == null) {
            buf.writeInt(-1);
            return;
        }
        int lengthIndex = buf.writerIndex();
        buf.writeInt(0);
        if (format == BINARY) {
            writeBinary(buf, type, value);
        } else {
            ByteBufUtil.writeUtf8(
                    buf,
                    type.kind() == TypeKind.TIMESTAMPTZ
                            ? zone.format((Long) value)
                            : type.kind() == TypeKind.ARRAY
                                    ? PgArrayLiteral.format(type.element(), (List<?>) value, zone)
                                    : PgTextFormat.format(type, value));
        }
        buf.setInt(lengthIndex, buf.writerIndex() - lengthIndex - 4);
    }

    private static void writeBinary(ByteBuf buf, DataType type, Object value) {
        switch (type.kind()) {
            case BOOLEAN -> buf.writeByte((Boolean) value ? 1 : 0);
            case SMALLINT -> buf.writeShort((Short) value);
            case INTEGER -> buf.writeInt((Integer) value);
            case BIGINT -> buf.writeLong((Long) value);
            case REAL -> buf.writeFloat((Float) value);
            case DOUBLE -> buf.writeDouble((Double) value);
            case NUMERIC -> PgNumericBinary.write(buf, (BigDecimal) value);
            case VARCHAR, TEXT, BPCHAR, JSON -> ByteBufUtil.writeUtf8(buf, value.toString());
            case ARRAY -> writeArray(buf, type.element(), (List<?>) value);
            case JSONB -> {
                // jsonb's binary form: version 1, then the text
                buf.writeByte(1);
                ByteBufUtil.writeUtf8(buf, value.toString());
            }
            case DATE -> buf.writeInt(InfiniteDateTimes.toPostgresDays((Integer) value));
            case TIME -> buf.writeLong((Long) value);
            case TIMESTAMP, TIMESTAMPTZ -> buf.writeLong(InfiniteDateTimes.toPostgresMicros((Long) value));
            case INTERVAL -> {
                Interval iv = (Interval) value;
                buf.writeLong(iv.micros());
                buf.writeInt(iv.days());
                buf.writeInt(iv.months());
            }
            case BYTEA -> buf.writeBytes((byte[]) value);
            case UUID -> {
                java.util.UUID u = (java.util.UUID) value;
                buf.writeLong(u.getMostSignificantBits());
                buf.writeLong(u.getLeastSignificantBits());
            }
        }
    }

    /**
     * array_send's layout: dimensions (0 for an empty array, else 1), a has-NULLs flag, the
     * element type's OID, the length and lower bound 1 of the dimension, then each element as a
     * length (-1 for NULL) and its binary form.
     */
    private static void writeArray(ByteBuf buf, DataType element, List<?> values) {
        buf.writeInt(values.isEmpty() ? 0 : 1);
        buf.writeInt(values.contains(null) ? 1 : 0);
        buf.writeInt(element.oid());
        if (!values.isEmpty()) {
            buf.writeInt(values.size());
            buf.writeInt(1);
        }
        for (int i = 0; i < values.size(); i++) {
            Object v = values.get(i);
            if (v == null) {
                buf.writeInt(-1);
                continue;
            }
            int lengthIndex = buf.writerIndex();
            buf.writeInt(0);
            writeBinary(buf, element, v);
            buf.setInt(lengthIndex, buf.writerIndex() - lengthIndex - 4);
        }
    }

    /** array_recv: {@link #writeArray}'s layout, one dimension at most, any lower bound. */
    private static List<Object> readArray(DataType type, ByteBuffer in, PgTimeZone zone) {
        if (in.remaining() < 12) {
            throw invalidBinary(type);
        }
        int dimensions = in.getInt();
        in.getInt(); // the has-NULLs flag: the lengths tell
        int elementOid = in.getInt();
        if (dimensions > 1) {
            throw TributaryException.notSupported("multidimensional arrays");
        }
        if (dimensions < 0 || elementOid != type.element().oid()) {
            throw new TributaryException(
                    SqlState.DATATYPE_MISMATCH,
                    "binary data has array element type " + elementOid + " instead of expected "
                            + type.element().oid());
        }
        int n = dimensions == 0 ? 0 : in.getInt();
        if (dimensions == 1) {
            in.getInt(); // lower bound
        }
        List<Object> values = new ArrayList<>(Math.max(0, Math.min(n, in.remaining() / 4)));
        for (int i = 0; i < n; i++) {
            int length = in.getInt();
            if (length < 0) {
                values.add(null);
                continue;
            }
            byte[] element = new byte[length];
            in.get(element);
            values.add(readParameter(type.element(), element, BINARY, zone));
        }
        if (in.hasRemaining()) {
            throw invalidBinary(type);
        }
        return values;
    }

    /**
     * Decodes a Bind parameter.
     *
     * @param type the parameter's type, or null when unknown: then the value is passed on as the
     *     raw string the client sent
     * @param bytes the raw value, null for SQL NULL
     * @param zone the session's, which timestamptz text without an offset is read in
     * @throws TributaryException 22P02 etc. for bad text, 22P03 for malformed binary input
     */
    static Object readParameter(DataType type, byte[] bytes, short format, PgTimeZone zone) {
        if (bytes == null) {
            return null;
        }
        if (type == null) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (format != BINARY) {
            String text = new String(bytes, StandardCharsets.UTF_8);
            return type.kind() == TypeKind.TIMESTAMPTZ
                    ? PgTextFormat.parseTimestamptz(text, zone)
                    : type.kind() == TypeKind.ARRAY
                            ? PgArrayLiteral.parse(type.element(), text, zone)
                            : PgTextFormat.parse(type, text);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            return readBinary(type, bytes, in, zone);
        } catch (java.nio.BufferUnderflowException e) {
            throw invalidBinary(type);
        }
    }

    private static Object readBinary(DataType type, byte[] bytes, ByteBuffer in, PgTimeZone zone) {
        return switch (type.kind()) {
            case BOOLEAN -> fixed(in, 1).get() != 0;
            case SMALLINT -> fixed(in, 2).getShort();
            case INTEGER -> fixed(in, 4).getInt();
            case BIGINT -> fixed(in, 8).getLong();
            case REAL -> fixed(in, 4).getFloat();
            case DOUBLE -> fixed(in, 8).getDouble();
            case NUMERIC -> Values.fitNumeric(PgNumericBinary.read(in), type);
            case VARCHAR, TEXT, BPCHAR -> Values.fitString(new String(bytes, StandardCharsets.UTF_8), type);
            case ARRAY -> readArray(type, in, zone);
            case DATE -> InfiniteDateTimes.fromPostgresDays(fixed(in, 4).getInt());
            case TIME -> fixed(in, 8).getLong();
            case TIMESTAMP, TIMESTAMPTZ ->
                InfiniteDateTimes.fromPostgresMicros(fixed(in, 8).getLong());
            case INTERVAL -> {
                fixed(in, 16);
                long micros = in.getLong();
                int days = in.getInt();
                yield new Interval(in.getInt(), days, micros);
            }
            case BYTEA -> bytes;
            case UUID -> new java.util.UUID(fixed(in, 16).getLong(), in.getLong());
            case JSON -> PgJsonText.json(new String(bytes, StandardCharsets.UTF_8));
            case JSONB -> {
                if (bytes.length == 0 || bytes[0] != 1) {
                    throw new TributaryException(
                            SqlState.INVALID_BINARY_REPRESENTATION,
                            "unsupported jsonb version number " + (bytes.length == 0 ? 0 : bytes[0]));
                }
                yield PgJsonText.jsonb(new String(bytes, 1, bytes.length - 1, StandardCharsets.UTF_8));
            }
        };
    }

    private static ByteBuffer fixed(ByteBuffer in, int length) {
        if (in.remaining() != length) {
            throw new TributaryException(
                    SqlState.INVALID_BINARY_REPRESENTATION,
                    "incorrect binary data format: expected " + length + " bytes, got " + in.remaining());
        }
        return in;
    }

    static TributaryException invalidBinary(DataType type) {
        return new TributaryException(
                SqlState.INVALID_BINARY_REPRESENTATION, "incorrect binary data format for type " + type);
    }
}
