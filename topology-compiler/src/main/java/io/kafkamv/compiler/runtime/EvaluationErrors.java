package io.kafkamv.compiler.runtime;

/**
 * Where a running view reports a value it could not compute for a row: an integer that overflows, a
 * division by zero, a string that is not a number. A batch query fails on such a row, as PostgreSQL's
 * does; a view cannot fail a statement, and stopping it would stop it for every other row too. So, as in
 * RisingWave, the expression is null for that row (a WHERE that cannot be computed does not pass), and
 * the error is reported here to be counted and logged.
 */
@FunctionalInterface
public interface EvaluationErrors {

    /**
     * @param stepId the plan step that computed it
     * @param what   the expression or aggregate, as the user can recognise it
     * @param error  what went wrong
     */
    void report(String stepId, String what, RuntimeException error);

    /**
     * Whether the exception is the data's fault (an overflow, a division by zero, text that is not a
     * number or a date, a function given an argument it refuses), so that the value is null. Anything
     * else is a fault of kafka-mv, and fails the job rather than hide as nulls.
     */
    static boolean isBadValue(RuntimeException error) {
        return error instanceof ArithmeticException || error instanceof IllegalArgumentException
            || error instanceof java.time.DateTimeException || error instanceof org.apache.calcite.runtime.CalciteException;
    }
}
