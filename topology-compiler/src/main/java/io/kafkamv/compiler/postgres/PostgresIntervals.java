package io.kafkamv.compiler.postgres;

import java.util.Locale;

import io.kafkamv.compiler.types.PostgresInterval;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's interval literal, {@code INTERVAL '1 day 2 hours'}, whose string carries its units; Calcite's grammar
 * wants them after it ({@code INTERVAL '1' DAY}). The grammar (patched in topology-compiler's pom) makes such a
 * literal a call of a marker function, which the parser's rewrite turns into Calcite's interval literal, or
 * refuses with PostgreSQL's error at the literal's position.
 */
public final class PostgresIntervals {

    private static final String MARKER = "kafka_mv_postgres_interval";
    private static final int LEADING_PRECISION = 9;

    private PostgresIntervals() {
    }

    /**
     * Called by the grammar for {@code INTERVAL [+|-] 'text'} without units after the string; an error in the text
     * points at the string ({@code textPos}), as PostgreSQL's does.
     */
    public static SqlNode unqualified(SqlParserPos pos, SqlParserPos textPos, int sign, String text) {
        SqlNode call = new SqlUnresolvedFunction(new SqlIdentifier(MARKER, pos), null, null, null, null,
            SqlFunctionCategory.USER_DEFINED_FUNCTION).createCall(pos, SqlLiteral.createCharString(text, textPos));
        return sign < 0 ? SqlStdOperatorTable.UNARY_MINUS.createCall(pos, call) : call;
    }

    /** The string of an unqualified interval literal, if this is one. */
    public static SqlCharStringLiteral text(SqlCall call) {
        return call.getOperator() instanceof SqlUnresolvedFunction function
            && function.getName().equals(MARKER) && call.operand(0) instanceof SqlCharStringLiteral text ? text : null;
    }

    /**
     * Calcite's literal of a PostgreSQL interval: days to seconds, or years to months. One of both kinds
     * ({@code 1 month 2 days}) is no Calcite value: {@link MixedIntervalException}.
     */
    public static SqlLiteral literal(PostgresInterval interval, SqlParserPos pos) {
        if (interval.months() != 0 && interval.millis() != 0) {
            throw new MixedIntervalException();
        }
        if (interval.months() != 0) {
            int months = Math.abs(interval.months());
            return SqlLiteral.createInterval(Integer.signum(interval.months()), months / 12 + "-" + months % 12,
                new SqlIntervalQualifier(TimeUnit.YEAR, LEADING_PRECISION, TimeUnit.MONTH, -1, pos), pos);
        }
        long millis = Math.abs(interval.millis());
        String dayToSecond = String.format(Locale.ROOT, "%d %d:%d:%d.%03d", millis / 86_400_000L,
            millis / 3_600_000L % 24, millis / 60_000L % 60, millis / 1_000L % 60, millis % 1_000L);
        return SqlLiteral.createInterval(interval.millis() < 0 ? -1 : 1, dayToSecond,
            new SqlIntervalQualifier(TimeUnit.DAY, LEADING_PRECISION, TimeUnit.SECOND, 3, pos), pos);
    }

    /** An interval of months and of days or times at once, which Calcite cannot hold in one value. */
    public static final class MixedIntervalException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MixedIntervalException() {
            super("an interval of months and of days or times at once is not supported");
        }
    }
}
