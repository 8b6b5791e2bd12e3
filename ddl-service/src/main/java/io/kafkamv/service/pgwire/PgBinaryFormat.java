package io.kafkamv.service.pgwire;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import io.kafkamv.compiler.types.PostgresInterval;
import io.kafkamv.service.result.PgType;

/**
 * Values in PostgreSQL's binary format, for clients that ask for it (pgjdbc does for a prepared
 * statement it has run a few times). Types without a binary form here are sent as text.
 */
final class PgBinaryFormat {

    private static final long POSTGRES_EPOCH_DAYS = LocalDate.of(2000, 1, 1).toEpochDay();
    private static final long POSTGRES_EPOCH_MICROS =
        LocalDateTime.of(2000, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC) * 1_000_000L;

    private static final long DAY_MILLIS = 86_400_000L;

    private PgBinaryFormat() {
    }

    static boolean supports(PgType type) {
        return switch (type) {
            case BOOL, INT2, INT4, INT8, FLOAT4, FLOAT8, NUMERIC, VARCHAR, BYTEA, DATE, TIME, TIMESTAMP, TIMESTAMPTZ,
                INTERVAL, JSONB -> true;
        };
    }

    static byte[] encode(Object value, PgType type) {
        return switch (type) {
            case BOOL -> new byte[] {(byte) (((Boolean) value) ? 1 : 0)};
            case INT2 -> ByteBuffer.allocate(2).putShort(((Number) value).shortValue()).array();
            case INT4 -> ByteBuffer.allocate(4).putInt(((Number) value).intValue()).array();
            case INT8 -> ByteBuffer.allocate(8).putLong(((Number) value).longValue()).array();
            case FLOAT4 -> ByteBuffer.allocate(4).putFloat(((Number) value).floatValue()).array();
            case FLOAT8 -> ByteBuffer.allocate(8).putDouble(((Number) value).doubleValue()).array();
            case NUMERIC -> PgBinaryNumeric.encode(value instanceof BigDecimal decimal ? decimal
                : new BigDecimal(value.toString()));
            case BYTEA -> (byte[]) value;
            case TIME -> ByteBuffer.allocate(8).putLong(((java.sql.Time) value).toLocalTime().toNanoOfDay() / 1000).array();
            case DATE -> ByteBuffer.allocate(4).putInt((int) (((java.sql.Date) value).toLocalDate().toEpochDay()
                - POSTGRES_EPOCH_DAYS)).array();
            case TIMESTAMP, TIMESTAMPTZ -> {
                LocalDateTime time = ((java.sql.Timestamp) value).toLocalDateTime();
                long micros = time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
                yield ByteBuffer.allocate(8).putLong(micros - POSTGRES_EPOCH_MICROS).array();
            }
            case INTERVAL -> {
                // PostgreSQL's form: microseconds of the time, then days, then months, as the text splits them.
                PostgresInterval interval = value instanceof PostgresInterval given ? given
                    : new PostgresInterval(0, ((Number) value).longValue());
                yield ByteBuffer.allocate(16).putLong(interval.millis() % DAY_MILLIS * 1000)
                    .putInt(Math.toIntExact(interval.millis() / DAY_MILLIS)).putInt(interval.months()).array();
            }
            case JSONB -> {
                byte[] json = value.toString().getBytes(StandardCharsets.UTF_8);
                yield ByteBuffer.allocate(json.length + 1).put((byte) 1).put(json).array();
            }
            default -> (value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString())
                .getBytes(StandardCharsets.UTF_8);
        };
    }
}
