package io.kafkamv.connectors.row;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;

/**
 * The compact binary form of a row, as kept in topics and state stores.
 *
 * <p>Values are Java objects in the form the query engine computes with: {@code Integer} for
 * INTEGER, {@code Long} for BIGINT, {@code Integer} days for DATE, {@code Integer} milliseconds of
 * the day for TIME, {@code Long} epoch milliseconds for TIMESTAMP(TZ), {@code Long} milliseconds for
 * INTERVAL, {@code String} for text and JSONB, {@code byte[]} for BYTEA.
 *
 * <p>Layout: a version byte, a null bitmap, then each non-null value: fixed width for numbers,
 * a varint length and the bytes for text, bytes and decimals. The same row always encodes to the
 * same bytes, so encoded keys compare by their bytes.
 */
public final class RowCodec {

    private static final byte VERSION = 1;

    private final SqlType[] types;

    public RowCodec(List<Column> columns) {
        this.types = columns.stream().map(Column::type).toArray(SqlType[]::new);
    }

    public int arity() {
        return types.length;
    }

    public byte[] encode(Object[] row) {
        if (row.length != types.length) {
            throw new IllegalArgumentException("Row has " + row.length + " values, schema has " + types.length);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 + 8 * types.length);
        out.write(VERSION);
        byte[] nulls = new byte[(types.length + 7) / 8];
        for (int i = 0; i < row.length; i++) {
            if (row[i] == null) {
                nulls[i / 8] |= (byte) (1 << (i % 8));
            }
        }
        out.writeBytes(nulls);
        ByteBuffer scratch = ByteBuffer.allocate(8);
        for (int i = 0; i < row.length; i++) {
            if (row[i] != null) {
                writeValue(out, scratch, types[i], row[i]);
            }
        }
        return out.toByteArray();
    }

    public Object[] decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        byte version = in.get();
        if (version != VERSION) {
            throw new IllegalArgumentException("Unknown row format version " + version);
        }
        byte[] nulls = new byte[(types.length + 7) / 8];
        in.get(nulls);
        Object[] row = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            boolean isNull = (nulls[i / 8] & (1 << (i % 8))) != 0;
            row[i] = isNull ? null : readValue(in, types[i]);
        }
        return row;
    }

    private static void writeValue(ByteArrayOutputStream out, ByteBuffer scratch, SqlType type, Object value) {
        scratch.clear();
        switch (type) {
            case BOOLEAN -> out.write(((Boolean) value) ? 1 : 0);
            case SMALLINT -> out.write(scratch.putShort(((Number) value).shortValue()).array(), 0, 2);
            case INTEGER, DATE, TIME -> out.write(scratch.putInt(((Number) value).intValue()).array(), 0, 4);
            case BIGINT, TIMESTAMP, TIMESTAMPTZ, INTERVAL ->
                out.write(scratch.putLong(((Number) value).longValue()).array(), 0, 8);
            case REAL -> out.write(scratch.putFloat(((Number) value).floatValue()).array(), 0, 4);
            case DOUBLE -> out.write(scratch.putDouble(((Number) value).doubleValue()).array(), 0, 8);
            case DECIMAL -> {
                BigDecimal decimal = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
                writeVarInt(out, decimal.scale());
                writeBytes(out, decimal.unscaledValue().toByteArray());
            }
            case VARCHAR, JSONB -> writeBytes(out, value.toString().getBytes(StandardCharsets.UTF_8));
            case BYTEA -> writeBytes(out, (byte[]) value);
        }
    }

    private static Object readValue(ByteBuffer in, SqlType type) {
        return switch (type) {
            case BOOLEAN -> in.get() != 0;
            case SMALLINT -> in.getShort();
            case INTEGER, DATE, TIME -> in.getInt();
            case BIGINT, TIMESTAMP, TIMESTAMPTZ, INTERVAL -> in.getLong();
            case REAL -> in.getFloat();
            case DOUBLE -> in.getDouble();
            case DECIMAL -> {
                int scale = readVarInt(in);
                yield new BigDecimal(new BigInteger(readBytes(in)), scale);
            }
            case VARCHAR, JSONB -> new String(readBytes(in), StandardCharsets.UTF_8);
            case BYTEA -> readBytes(in);
        };
    }

    private static void writeBytes(ByteArrayOutputStream out, byte[] bytes) {
        writeVarInt(out, bytes.length);
        out.writeBytes(bytes);
    }

    private static byte[] readBytes(ByteBuffer in) {
        byte[] bytes = new byte[readVarInt(in)];
        in.get(bytes);
        return bytes;
    }

    private static void writeVarInt(ByteArrayOutputStream out, int value) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    private static int readVarInt(ByteBuffer in) {
        int v = 0;
        int shift = 0;
        int b;
        do {
            b = in.get();
            v |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return (v >>> 1) ^ -(v & 1);
    }
}
