package io.kafkamv.compiler.functions;

/** PostgreSQL's system information functions that clients call when they connect. */
public final class SystemFunctions {

    /** The PostgreSQL version kafka-mv speaks for: the protocol, the catalog and the SQL clients may rely on. */
    public static final String SERVER_VERSION = "13.0.0";

    /** The same version as {@code server_version_num} gives it, which clients compare as a number. */
    public static final String SERVER_VERSION_NUM = "130000";

    /** {@code current_setting(name)}: the session's value of a setting, put in its place where a query runs. */
    public static final String CURRENT_SETTING = "current_setting";

    /** {@code pg_typeof(value)}: the name of the type of its argument, put in its place where an expression is planned. */
    public static final String PG_TYPEOF = "pg_typeof";

    /**
     * What the parser makes of {@code current_schema}: a call of {@link #currentSchema} under a name of its own, as
     * Calcite would take a function named {@code current_schema} for its own, which it cannot run.
     */
    public static final String CURRENT_SCHEMA = "kafka_mv_current_schema";

    private SystemFunctions() {
    }

    /** {@code current_schema()} and {@code current_schema}: every object of kafka-mv is in PostgreSQL's default schema. */
    public static String currentSchema() {
        return "public";
    }

    /** {@code current_database()}: kafka-mv has one database, which psql's {@code \l} lists as dev. */
    public static String currentDatabase() {
        return "dev";
    }

    /**
     * {@code pg_sleep(seconds)}: waits, as scripts and tests use it between steps; PostgreSQL's returns void, which
     * prints as an empty value, and so does this one's null. A cancel of the statement interrupts it.
     */
    @org.apache.calcite.linq4j.function.Strict
    public static String pgSleep(Object seconds) {
        try {
            Thread.sleep(Math.max(0, Math.round(((Number) seconds).doubleValue() * 1000)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    /**
     * What {@code current_setting} gives where no session is: in a view, whose rows are computed long after
     * whoever created it has gone. A batch query gets its session's values (the service puts them in place).
     */
    @org.apache.calcite.linq4j.function.Strict
    public static String currentSetting(String name) {
        throw new IllegalArgumentException("current_setting('" + name + "') has no session in a materialized view");
    }

    /** Only reached if the rewrite that names the argument's type did not run: it runs on every plan. */
    public static String pgTypeof(Object value) {
        throw new IllegalStateException("pg_typeof was not planned");
    }

    /** The name PostgreSQL gives a result column of a call of this function: {@code current_schema} for ours. */
    public static String resultName(String function) {
        return function.equalsIgnoreCase(CURRENT_SCHEMA) ? "current_schema" : function;
    }

    /**
     * {@code version()}: PostgreSQL's form, which clients parse for the major and minor version (SQLAlchemy
     * runs {@code select pg_catalog.version()} on its first connection).
     */
    public static String version() {
        return "PostgreSQL " + SERVER_VERSION + " (kafka-mv)";
    }
}
