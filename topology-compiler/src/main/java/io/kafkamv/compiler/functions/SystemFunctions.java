package io.kafkamv.compiler.functions;

/** PostgreSQL's system information functions that clients call when they connect. */
public final class SystemFunctions {

    /** The PostgreSQL version kafka-mv speaks for: the protocol, the catalog and the SQL clients may rely on. */
    public static final String SERVER_VERSION = "13.0.0";

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
