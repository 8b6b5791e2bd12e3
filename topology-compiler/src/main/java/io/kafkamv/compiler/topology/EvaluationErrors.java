package io.kafkamv.compiler.topology;

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
}
