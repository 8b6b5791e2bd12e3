package io.kafkamv.compiler.topology.internal;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.kafkamv.compiler.plan.TopNStep.SortField;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;

/**
 * Encodes a row's sort columns so that comparing the bytes (unsigned, as RocksDB does) compares the
 * rows in SQL sort order: a store keyed by them iterates in that order. Text sorts by code point
 * (PostgreSQL's "C" collation).
 */
public final class SortKeys {

    private final List<SortField> fields;
    private final SqlType[] types;

    public SortKeys(List<SortField> fields, List<Column> columns) {
        this.fields = fields;
        this.types = fields.stream().map(field -> columns.get(field.column()).type()).toArray(SqlType[]::new);
    }

    byte[] encode(Object[] row) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < fields.size(); i++) {
            SortField field = fields.get(i);
            Object value = row[field.column()];
            if (value == null) {
                out.write(field.nullsFirst() ? 0 : 2);
                continue;
            }
            out.write(1);
            byte[] bytes = ascending(value, types[i]);
            if (field.descending()) {
                for (int b = 0; b < bytes.length; b++) {
                    bytes[b] = (byte) ~bytes[b];
                }
            }
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    private static byte[] ascending(Object value, SqlType type) {
        return switch (type) {
            case BOOLEAN -> new byte[] {(byte) ((Boolean) value ? 1 : 0)};
            case SMALLINT, INTEGER, BIGINT, DATE, TIME, TIMESTAMP, TIMESTAMPTZ, INTERVAL ->
                ByteBuffer.allocate(8).putLong(((Number) value).longValue() ^ Long.MIN_VALUE).array();
            case REAL, DOUBLE -> {
                long bits = Double.doubleToLongBits(((Number) value).doubleValue() + 0.0);
                // Negative numbers sort backwards by their bits: flip all; positive ones: flip the sign.
                yield ByteBuffer.allocate(8).putLong(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE).array();
            }
            case DECIMAL -> decimal((BigDecimal) value);
            case VARCHAR, JSONB -> terminated(value.toString().getBytes(StandardCharsets.UTF_8));
            case BYTEA -> terminated((byte[]) value);
        };
    }

    /**
     * Sign, then for non-zero values the decimal exponent and the significant digits: larger
     * exponents are larger numbers, and digits compare as text. Negative values are all inverted.
     */
    private static byte[] decimal(BigDecimal value) {
        int sign = value.signum();
        if (sign == 0) {
            return new byte[] {1};
        }
        BigDecimal normalized = value.abs().stripTrailingZeros();
        int exponent = normalized.precision() - normalized.scale();
        byte[] digits = normalized.unscaledValue().toString().getBytes(StandardCharsets.US_ASCII);
        ByteBuffer buffer = ByteBuffer.allocate(1 + 4 + digits.length + 1);
        buffer.put((byte) (sign > 0 ? 2 : 0)).putInt(exponent ^ Integer.MIN_VALUE).put(digits).put((byte) 0);
        byte[] bytes = buffer.array();
        if (sign < 0) {
            for (int i = 1; i < bytes.length; i++) {
                bytes[i] = (byte) ~bytes[i];
            }
        }
        return bytes;
    }

    /** Bytes that sort before any longer text they start: 0 escaped as 0 255, then 0 1 at the end. */
    private static byte[] terminated(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 2);
        for (byte b : bytes) {
            out.write(b);
            if (b == 0) {
                out.write(255);
            }
        }
        out.write(0);
        out.write(1);
        return out.toByteArray();
    }
}
