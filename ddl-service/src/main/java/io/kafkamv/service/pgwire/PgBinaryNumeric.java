package io.kafkamv.service.pgwire;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's binary form of a numeric (numeric_send and numeric_recv): the count of base-10,000 digits, the
 * weight of the first, the sign, the display scale, then the digits. asyncpg and psycopg 3 send and read numerics
 * this way.
 */
final class PgBinaryNumeric {

    private static final int POSITIVE = 0x0000;
    private static final int NEGATIVE = 0x4000;
    private static final int NAN = 0xC000;
    private static final BigInteger BASE = BigInteger.valueOf(10_000);

    private PgBinaryNumeric() {
    }

    static BigDecimal decode(ByteBuffer buffer) {
        int count = buffer.getShort();
        int weight = buffer.getShort();
        int sign = buffer.getShort() & 0xFFFF;
        int scale = buffer.getShort();
        if (sign == NAN) {
            throw new NumberFormatException("NaN is not a numeric kafka-mv can hold");
        }
        BigInteger digits = BigInteger.ZERO;
        for (int i = 0; i < count; i++) {
            digits = digits.multiply(BASE).add(BigInteger.valueOf(buffer.getShort()));
        }
        // The digits stand for digits * 10000^(weight - count + 1).
        BigDecimal value = new BigDecimal(digits).scaleByPowerOfTen(4 * (weight - count + 1));
        value = value.setScale(scale, java.math.RoundingMode.UNNECESSARY);
        return sign == NEGATIVE ? value.negate() : value;
    }

    static byte[] encode(BigDecimal value) {
        int scale = Math.max(value.scale(), 0);
        BigInteger unscaled = value.abs().setScale(scale).unscaledValue();
        // Pad the fraction to whole base-10,000 digits.
        int fractionDigits = (scale + 3) / 4;
        unscaled = unscaled.multiply(BigInteger.TEN.pow(fractionDigits * 4 - scale));
        List<Short> digits = new ArrayList<>();
        while (unscaled.signum() > 0) {
            BigInteger[] division = unscaled.divideAndRemainder(BASE);
            digits.add(0, division[1].shortValue());
            unscaled = division[0];
        }
        int weight = digits.size() - fractionDigits - 1;
        while (!digits.isEmpty() && digits.get(digits.size() - 1) == 0) {
            digits.remove(digits.size() - 1);
        }
        while (!digits.isEmpty() && digits.get(0) == 0) {
            digits.remove(0);
            weight--;
        }
        ByteBuffer buffer = ByteBuffer.allocate(8 + 2 * digits.size());
        buffer.putShort((short) digits.size());
        buffer.putShort((short) (digits.isEmpty() ? 0 : weight));
        buffer.putShort((short) (value.signum() < 0 ? NEGATIVE : POSITIVE));
        buffer.putShort((short) scale);
        digits.forEach(buffer::putShort);
        return buffer.array();
    }
}
