package io.kafkamv.compiler.functions;

/** PostgreSQL's system information functions that clients call when they connect. */
public final class SystemFunctions {

    /** The PostgreSQL version kafka-mv speaks for: the protocol, the catalog and the SQL clients may rely on. */
    public static final String SERVER_VERSION = "13.0.0";

    private SystemFunctions() {
    }

    /**
     * {@code version()}: PostgreSQL's form, which clients parse for the major and minor version (SQLAlchemy
     * runs {@code select pg_catalog.version()} on its first connection).
     */
    public static String version() {
        return "PostgreSQL " + SERVER_VERSION + " (kafka-mv)";
    }
}
