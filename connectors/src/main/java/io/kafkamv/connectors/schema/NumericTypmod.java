package io.kafkamv.connectors.schema;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The precision and scale of a declared {@code numeric(precision, scale)} column, PostgreSQL's typmod: every
 * value is rounded to {@code scale} digits after the point (half away from zero), and one with more than
 * {@code precision - scale} digits before it does not fit.
 */
public record NumericTypmod(int precision, int scale) {

    /** PostgreSQL's limit on a declared numeric's precision. */
    public static final int MAX_PRECISION = 1000;

    public NumericTypmod {
        if (precision < 1 || precision > MAX_PRECISION) {
            throw new IllegalArgumentException("NUMERIC precision " + precision + " must be between 1 and " + MAX_PRECISION);
        }
        if (scale < 0 || scale > precision) {
            throw new IllegalArgumentException("NUMERIC scale " + scale + " must be between 0 and precision " + precision);
        }
    }

    /** The value with this typmod's scale; fails with PostgreSQL's words when it has too many digits before the point. */
    public BigDecimal apply(BigDecimal value) {
        BigDecimal rounded = value.setScale(scale, RoundingMode.HALF_UP);
        if (rounded.signum() != 0 && rounded.precision() - rounded.scale() > precision - scale) {
            throw new ArithmeticException("numeric field overflow");
        }
        return rounded;
    }

    /** What a value must be to fit, as PostgreSQL details a numeric field overflow. */
    public String limit() {
        return "A field with precision " + precision + ", scale " + scale + " must round to an absolute value less than "
            + (precision == scale ? "1" : "10^" + (precision - scale)) + ".";
    }

    /** The typmod as PostgreSQL encodes it in its catalog and protocol: {@code ((precision << 16) | scale) + 4}. */
    public int encoded() {
        return ((precision << 16) | scale) + 4;
    }

    @Override
    public String toString() {
        return "numeric(" + precision + "," + scale + ")";
    }
}
