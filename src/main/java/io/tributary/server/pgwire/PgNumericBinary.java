package io.tributary.server.pgwire;

import io.netty.buffer.ByteBuf;
import io.tributary.common.types.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * PostgreSQL's binary numeric layout: {@code int16 ndigits, int16 weight, int16 sign,
 * int16 dscale}, then {@code ndigits} base-10000 digits as int16, most significant first. The value
 * is {@code sum(digit[i] * 10000^(weight - i))}; dscale is the number of decimal digits after the
 * point to display. Stateless.
 */
final class PgNumericBinary {
    private static final int POSITIVE = 0x0000;
    private static final int NEGATIVE = 0x4000;
    private static final BigInteger NBASE = BigInteger.valueOf(10_000);

    private PgNumericBinary() {}

    static void write(ByteBuf buf, BigDecimal value) {
        int dscale = Math.max(value.scale(), 0);
        // Group the plain decimal digits in fours around the decimal point.
        String plain = value.abs().setScale(dscale, RoundingMode.UNNECESSARY).toPlainString();
        int point = plain.indexOf('.');
        String intPart = point < 0 ? plain : plain.substring(0, point);
        String fracPart = point < 0 ? "" : plain.substring(point + 1);
        int intGroups = (intPart.length() + 3) / 4;
        int fracGroups = (fracPart.length() + 3) / 4;
        String digits = "0".repeat(intGroups * 4 - intPart.length())
                + intPart
                + fracPart
                + "0".repeat(fracGroups * 4 - fracPart.length());
        int total = intGroups + fracGroups;
        int first = 0;
        while (first < total && group(digits, first) == 0) {
            first++;
        }
        int last = total - 1;
        while (last >= first && group(digits, last) == 0) {
            last--;
        }
        int ndigits = last - first + 1;
        buf.writeShort(ndigits);
        buf.writeShort(ndigits == 0 ? 0 : intGroups - 1 - first);
        buf.writeShort(value.signum() < 0 ? NEGATIVE : POSITIVE);
        buf.writeShort(dscale);
        for (int i = first; i <= last; i++) {
            buf.writeShort(group(digits, i));
        }
    }

    private static int group(String digits, int index) {
        return Integer.parseInt(digits, index * 4, index * 4 + 4, 10);
    }

    /** @throws io.tributary.common.TributaryException 22P03 for NaN, infinities or a malformed value */
    static BigDecimal read(ByteBuffer in) {
        try {
            int ndigits = in.getShort();
            int weight = in.getShort();
            int sign = in.getShort() & 0xffff;
            int dscale = in.getShort();
            if (ndigits < 0 || dscale < 0 || (sign != POSITIVE && sign != NEGATIVE)) {
                throw PgValueCodec.invalidBinary(DataType.NUMERIC);
            }
            BigInteger unscaled = BigInteger.ZERO;
            for (int i = 0; i < ndigits; i++) {
                int d = in.getShort();
                if (d < 0 || d >= 10_000) {
                    throw PgValueCodec.invalidBinary(DataType.NUMERIC);
                }
                unscaled = unscaled.multiply(NBASE).add(BigInteger.valueOf(d));
            }
            BigDecimal v = new BigDecimal(unscaled).scaleByPowerOfTen(4 * (weight - ndigits + 1));
            if (in.hasRemaining()) {
                throw PgValueCodec.invalidBinary(DataType.NUMERIC);
            }
            v = v.setScale(dscale, RoundingMode.DOWN);
            return sign == NEGATIVE ? v.negate() : v;
        } catch (BufferUnderflowException e) {
            throw PgValueCodec.invalidBinary(DataType.NUMERIC);
        }
    }
}
