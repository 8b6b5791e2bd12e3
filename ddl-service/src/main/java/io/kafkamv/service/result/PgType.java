package io.kafkamv.service.result;

import io.kafkamv.connectors.schema.SqlType;

/** How each of our column types is described to a PostgreSQL client, on the wire and in the catalog: type OID and size. */
public enum PgType {
    BOOL(16, 1),
    INT2(21, 2),
    INT4(23, 4),
    INT8(20, 8),
    FLOAT4(700, 4),
    FLOAT8(701, 8),
    NUMERIC(1700, -1),
    VARCHAR(1043, -1),
    DATE(1082, 4),
    TIME(1083, 8),
    TIMESTAMP(1114, 8),
    TIMESTAMPTZ(1184, 8),
    INTERVAL(1186, 16),
    BYTEA(17, -1),
    JSONB(3802, -1);

    /** {@code text}: what a parameter is when nothing says what else it is, as in PostgreSQL. */
    public static final int TEXT_OID = 25;

    private final int oid;
    private final int size;

    PgType(int oid, int size) {
        this.oid = oid;
        this.size = size;
    }

    public int oid() {
        return oid;
    }

    /** {@code typlen}: the fixed width in bytes, or -1 for variable-length types. */
    public int size() {
        return size;
    }

    public static PgType of(SqlType type) {
        return switch (type) {
            case BOOLEAN -> BOOL;
            case SMALLINT -> INT2;
            case INTEGER -> INT4;
            case BIGINT -> INT8;
            case REAL -> FLOAT4;
            case DOUBLE -> FLOAT8;
            case DECIMAL -> NUMERIC;
            case VARCHAR -> VARCHAR;
            case DATE -> DATE;
            case TIME -> TIME;
            case TIMESTAMP -> TIMESTAMP;
            case TIMESTAMPTZ -> TIMESTAMPTZ;
            case INTERVAL -> INTERVAL;
            case BYTEA -> BYTEA;
            case JSONB -> JSONB;
        };
    }
}
