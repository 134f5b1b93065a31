package io.tributary.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.server.session.ColumnDesc;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PgValueCodecTest {

    /** Encodes a value in binary and decodes it as a Bind parameter would be. */
    private static Object roundTrip(DataType type, Object value) {
        ByteBuf buf = Unpooled.buffer();
        PgValueCodec.writeValue(buf, type, value, PgValueCodec.BINARY, io.tributary.common.types.PgTimeZone.UTC);
        byte[] bytes = new byte[buf.readInt()];
        buf.readBytes(bytes);
        return PgValueCodec.readParameter(type, bytes, PgValueCodec.BINARY, io.tributary.common.types.PgTimeZone.UTC);
    }

    @Test
    void everyTypeRoundTripsInBinary() {
        List<ColumnDesc> columns = PgFakeSession.typeColumns();
        Object[] row = PgFakeSession.typeRow();
        for (int i = 0; i < row.length; i++) {
            Object back = roundTrip(columns.get(i).type(), row[i]);
            if (row[i] instanceof byte[] b) {
                assertArrayEquals(b, (byte[]) back);
            } else {
                assertEquals(row[i], back, columns.get(i).name());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "0",
                "0.00",
                "1",
                "-1",
                "10000",
                "9999.9999",
                "0.0001",
                "-0.00012",
                "123456789.123456789",
                "1E+8",
                "100000000",
                "3.14159265358979323846264338327950288"
            })
    void numericRoundTripsInBinary(String text) {
        BigDecimal v = new BigDecimal(text);
        BigDecimal back = (BigDecimal) roundTrip(DataType.NUMERIC, v);
        assertEquals(0, v.compareTo(back), text + " came back as " + back);
        assertEquals(Math.max(v.scale(), 0), back.scale());
    }

    @Test
    void numericBinaryLayoutMatchesPostgres() {
        ByteBuf buf = Unpooled.buffer();
        PgNumericBinary.write(buf, new BigDecimal("-12345.678"));
        // ndigits 3, weight 1, sign NEG, dscale 3, digits 1 2345 6780
        byte[] expected = {0, 3, 0, 1, 0x40, 0, 0, 3, 0, 1, 0x09, 0x29, 0x1a, 0x7c};
        byte[] actual = new byte[buf.readableBytes()];
        buf.readBytes(actual);
        assertArrayEquals(expected, actual);
    }

    @Test
    void wrongBinaryLengthIs22P03() {
        TributaryException e = assertThrows(
                TributaryException.class,
                () -> PgValueCodec.readParameter(
                        DataType.INTEGER,
                        new byte[] {1, 2},
                        PgValueCodec.BINARY,
                        io.tributary.common.types.PgTimeZone.UTC));
        assertEquals("22P03", e.sqlState());
    }

    @Test
    void unknownTypeIsPassedAsRawString() {
        assertEquals(
                "42",
                PgValueCodec.readParameter(
                        null, "42".getBytes(), PgValueCodec.TEXT, io.tributary.common.types.PgTimeZone.UTC));
    }
}
