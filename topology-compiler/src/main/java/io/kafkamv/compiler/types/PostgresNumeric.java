package io.kafkamv.compiler.types;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * PostgreSQL's numeric division, digit for digit: the quotient keeps at least 16 significant digits
 * and never fewer fraction digits than either operand, rounded half away from zero
 * ({@code select_div_scale} in PostgreSQL's numeric.c). {@code avg(int)} is 1.6666666666666667 there,
 * and so here, not 34 digits of a decimal128 division.
 */
public final class PostgresNumeric {

    /** NUMERIC_MIN_SIG_DIGITS. */
    private static final int MIN_SIGNIFICANT_DIGITS = 16;
    /** NUMERIC_MAX_DISPLAY_SCALE. */
    private static final int MAX_SCALE = 1000;
    /** PostgreSQL keeps numbers in base 10,000: four decimal digits per digit (DEC_DIGITS). */
    private static final int DECIMAL_DIGITS = 4;

    private PostgresNumeric() {
    }

    public static BigDecimal divide(BigDecimal dividend, BigDecimal divisor) {
        int quotientWeight = weight(dividend) - weight(divisor);
        if (firstDigit(dividend) <= firstDigit(divisor)) {
            quotientWeight--;
        }
        int scale = MIN_SIGNIFICANT_DIGITS - quotientWeight * DECIMAL_DIGITS;
        scale = Math.max(scale, Math.max(dividend.scale(), divisor.scale()));
        scale = Math.min(Math.max(scale, 0), MAX_SCALE);
        return dividend.divide(divisor, scale, RoundingMode.HALF_UP);
    }

    /** The position of the leading base-10,000 digit: 0 for 1 to 9,999, 1 from 10,000, -1 for 0.0001 to 0.9999. */
    private static int weight(BigDecimal value) {
        if (value.signum() == 0) {
            return 0;
        }
        int exponent = value.precision() - value.scale() - 1;
        return Math.floorDiv(exponent, DECIMAL_DIGITS);
    }

    /** The leading base-10,000 digit's value, from 1 to 9,999; 0 for zero. */
    private static int firstDigit(BigDecimal value) {
        if (value.signum() == 0) {
            return 0;
        }
        return value.abs().movePointLeft(weight(value) * DECIMAL_DIGITS).setScale(0, RoundingMode.DOWN).intValueExact();
    }
}
