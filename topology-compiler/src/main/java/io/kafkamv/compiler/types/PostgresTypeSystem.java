package io.kafkamv.compiler.types;

import java.math.RoundingMode;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type rules, changed where PostgreSQL differs in ways users notice: the sum of integers
 * is a bigint and the sum of bigints a numeric, so that neither overflows, and the average of integers
 * is a numeric, not a truncated integer. (Calcite's executor cannot sum bigints into a numeric, so a
 * batch query sums them as numerics; see the service's {@code PostgresQueryRules}.)
 * CASE and UNION branches of different lengths are text, not CHAR padded with spaces. A numeric
 * has up to 1,000 digits, as PostgreSQL's declared numerics do, not Calcite's 19: an average of
 * integers has 16 decimals, and in 19 digits it overflowed past 999. A remainder of integers of two widths has the
 * wider type.
 */
public final class PostgresTypeSystem extends RelDataTypeSystemImpl {

    public static final PostgresTypeSystem INSTANCE = new PostgresTypeSystem();

    private PostgresTypeSystem() {
    }

    /** PostgreSQL's limit on a declared numeric's precision and scale. */
    static final int MAX_NUMERIC_DIGITS = 1000;

    /**
     * Whether a numeric type has no declared scale: PostgreSQL's {@code numeric} without a typmod, whose values
     * each keep their own digits. It is the numeric of the greatest precision, which a declared numeric
     * ({@code numeric(1000, s)}) only has in theory; a sum or average of numerics has it too.
     */
    public static boolean isUnconstrained(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.DECIMAL && type.getPrecision() == MAX_NUMERIC_DIGITS;
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_NUMERIC_DIGITS : super.getMaxPrecision(typeName);
    }

    /**
     * {@code ::timestamp} keeps the fraction of a second, as PostgreSQL's does: Calcite's default precision
     * of times and timestamps is 0, which cut it. kafka-mv keeps milliseconds (PostgreSQL keeps microseconds).
     * {@code numeric} without a precision is unconstrained ({@link #isUnconstrained}), not Calcite's decimal(19, 0).
     */
    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 3;
            case DECIMAL -> MAX_NUMERIC_DIGITS;
            default -> super.getDefaultPrecision(typeName);
        };
    }

    /** A numeric cast to fewer decimals rounds half away from zero, as PostgreSQL's: 1.555::numeric(10,2) is 1.56. */
    @Override
    public RoundingMode roundingMode() {
        return RoundingMode.HALF_UP;
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_NUMERIC_DIGITS : super.getMaxScale(typeName);
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argumentType) {
        SqlTypeName name = argumentType.getSqlTypeName();
        RelDataType sum = switch (name) {
            case TINYINT, SMALLINT, INTEGER -> factory.createSqlType(SqlTypeName.BIGINT);
            case BIGINT -> factory.createSqlType(SqlTypeName.DECIMAL, getMaxNumericPrecision(), 0);
            default -> super.deriveSumType(factory, argumentType);
        };
        return factory.createTypeWithNullability(sum, argumentType.isNullable());
    }

    /**
     * A remainder ({@code %}, {@code mod}) of integers of two widths has the wider type, as PostgreSQL's, which has a
     * {@code %} for each width only and widens the narrower operand to call it; Calcite's is the divisor's. Both operators
     * ask here first, and only numerics had an answer.
     */
    @Override
    public RelDataType deriveDecimalModType(RelDataTypeFactory factory, RelDataType dividend, RelDataType divisor) {
        Integer dividendWidth = INTEGER_WIDTHS.get(dividend.getSqlTypeName());
        Integer divisorWidth = INTEGER_WIDTHS.get(divisor.getSqlTypeName());
        if (dividendWidth != null && divisorWidth != null) {
            return factory.createSqlType(dividendWidth >= divisorWidth ? dividend.getSqlTypeName()
                : divisor.getSqlTypeName());
        }
        return super.deriveDecimalModType(factory, dividend, divisor);
    }

    private static final java.util.Map<SqlTypeName, Integer> INTEGER_WIDTHS = java.util.Map.of(
        SqlTypeName.TINYINT, 1, SqlTypeName.SMALLINT, 2, SqlTypeName.INTEGER, 4, SqlTypeName.BIGINT, 8);

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory factory, RelDataType argumentType) {
        return switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> factory.createTypeWithNullability(
                factory.createSqlType(SqlTypeName.DECIMAL, getMaxNumericPrecision(), 16), argumentType.isNullable());
            default -> super.deriveAvgAggType(factory, argumentType);
        };
    }
}
