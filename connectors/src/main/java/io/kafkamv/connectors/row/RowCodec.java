package io.kafkamv.connectors.row;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

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
        int nullBytes = (types.length + 7) / 8;
        Writer out = new Writer(1 + nullBytes + 8 * types.length);
        out.put(VERSION);
        out.skip(nullBytes);
        for (int i = 0; i < row.length; i++) {
            if (row[i] == null) {
                out.bytes[1 + i / 8] |= (byte) (1 << (i % 8));
            } else {
                writeValue(out, types[i], row[i]);
            }
        }
        return out.toByteArray();
    }

    public Object[] decode(byte[] bytes) {
        return decode(bytes, 0);
    }

    /** The row encoded at {@code offset} of {@code bytes}, to their end (a store keeps a timestamp before it). */
    public Object[] decode(byte[] bytes, int offset) {
        checkVersion(bytes, offset);
        Reader in = new Reader(bytes, offset + 1 + (types.length + 7) / 8);
        Object[] row = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            row[i] = isNull(bytes, offset, i) ? null : readValue(in, types[i]);
        }
        return row;
    }

    /**
     * Only the values of {@code columns} (ascending indexes) of the row encoded at {@code offset}, in that order: the
     * others are skipped, not built, which is what a scan that reads a few columns of wide rows saves.
     */
    public Object[] decode(byte[] bytes, int offset, int[] columns) {
        checkVersion(bytes, offset);
        Reader in = new Reader(bytes, offset + 1 + (types.length + 7) / 8);
        Object[] values = new Object[columns.length];
        int next = 0;
        for (int i = 0; i < types.length && next < columns.length; i++) {
            boolean isNull = isNull(bytes, offset, i);
            if (columns[next] == i) {
                values[next++] = isNull ? null : readValue(in, types[i]);
            } else if (!isNull) {
                skipValue(in, types[i]);
            }
        }
        return values;
    }

    private static void checkVersion(byte[] bytes, int offset) {
        if (bytes[offset] != VERSION) {
            throw new IllegalArgumentException("Unknown row format version " + bytes[offset]);
        }
    }

    private static boolean isNull(byte[] bytes, int offset, int column) {
        return (bytes[offset + 1 + column / 8] & (1 << (column % 8))) != 0;
    }

    private static void writeValue(Writer out, SqlType type, Object value) {
        switch (type) {
            case BOOLEAN -> out.put((byte) (((Boolean) value) ? 1 : 0));
            case SMALLINT -> out.putShort(((Number) value).shortValue());
            case INTEGER, DATE, TIME -> out.putInt(((Number) value).intValue());
            case BIGINT, TIMESTAMP, TIMESTAMPTZ, INTERVAL -> out.putLong(((Number) value).longValue());
            case REAL -> out.putInt(Float.floatToRawIntBits(((Number) value).floatValue()));
            case DOUBLE -> out.putLong(Double.doubleToRawLongBits(((Number) value).doubleValue()));
            case DECIMAL -> {
                BigDecimal decimal = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
                out.putVarInt(decimal.scale());
                out.putBytes(decimal.unscaledValue().toByteArray());
            }
            case VARCHAR, JSONB -> out.putBytes(value.toString().getBytes(StandardCharsets.UTF_8));
            case BYTEA -> out.putBytes((byte[]) value);
        }
    }

    private static Object readValue(Reader in, SqlType type) {
        return switch (type) {
            case BOOLEAN -> in.get() != 0;
            case SMALLINT -> in.getShort();
            case INTEGER, DATE, TIME -> in.getInt();
            case BIGINT, TIMESTAMP, TIMESTAMPTZ, INTERVAL -> in.getLong();
            case REAL -> Float.intBitsToFloat(in.getInt());
            case DOUBLE -> Double.longBitsToDouble(in.getLong());
            case DECIMAL -> {
                int scale = in.getVarInt();
                yield new BigDecimal(new BigInteger(in.getBytes()), scale);
            }
            case VARCHAR, JSONB -> in.getString();
            case BYTEA -> in.getBytes();
        };
    }

    private static void skipValue(Reader in, SqlType type) {
        switch (type) {
            case BOOLEAN -> in.skip(1);
            case SMALLINT -> in.skip(2);
            case INTEGER, DATE, TIME, REAL -> in.skip(4);
            case BIGINT, TIMESTAMP, TIMESTAMPTZ, INTERVAL, DOUBLE -> in.skip(8);
            case DECIMAL -> {
                in.getVarInt();
                in.skipBytes();
            }
            case VARCHAR, JSONB, BYTEA -> in.skipBytes();
        }
    }

    /**
     * Big-endian numbers written straight into a growing array: every store, changelog and exchange encodes each
     * row, and a ByteArrayOutputStream (synchronized on every write) with a ByteBuffer for each number cost more than
     * the values.
     */
    private static final class Writer {
        private byte[] bytes;
        private int size;

        Writer(int capacity) {
            bytes = new byte[capacity];
        }

        void put(byte value) {
            ensure(1);
            bytes[size++] = value;
        }

        void skip(int count) {
            ensure(count);
            size += count;
        }

        void putShort(short value) {
            ensure(2);
            SHORT.set(bytes, size, value);
            size += 2;
        }

        void putInt(int value) {
            ensure(4);
            INT.set(bytes, size, value);
            size += 4;
        }

        void putLong(long value) {
            ensure(8);
            LONG.set(bytes, size, value);
            size += 8;
        }

        /** Zigzag, seven bits a byte. */
        void putVarInt(int value) {
            int v = (value << 1) ^ (value >> 31);
            while ((v & ~0x7F) != 0) {
                put((byte) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            put((byte) v);
        }

        void putBytes(byte[] value) {
            putVarInt(value.length);
            ensure(value.length);
            System.arraycopy(value, 0, bytes, size, value.length);
            size += value.length;
        }

        byte[] toByteArray() {
            return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }

    /** Reads what {@link Writer} wrote; a row cut short throws {@link IndexOutOfBoundsException}. */
    private static final class Reader {
        private final byte[] bytes;
        private int position;

        Reader(byte[] bytes, int position) {
            this.bytes = bytes;
            this.position = position;
        }

        byte get() {
            return bytes[position++];
        }

        short getShort() {
            short value = (short) SHORT.get(bytes, position);
            position += 2;
            return value;
        }

        int getInt() {
            int value = (int) INT.get(bytes, position);
            position += 4;
            return value;
        }

        long getLong() {
            long value = (long) LONG.get(bytes, position);
            position += 8;
            return value;
        }

        int getVarInt() {
            int v = 0;
            int shift = 0;
            int b;
            do {
                b = get();
                v |= (b & 0x7F) << shift;
                shift += 7;
            } while ((b & 0x80) != 0);
            return (v >>> 1) ^ -(v & 1);
        }

        byte[] getBytes() {
            int length = getVarInt();
            checkLength(length);
            byte[] value = Arrays.copyOfRange(bytes, position, position + length);
            position += length;
            return value;
        }

        void skip(int count) {
            position += count;
        }

        void skipBytes() {
            int length = getVarInt();
            checkLength(length);
            position += length;
        }

        String getString() {
            int length = getVarInt();
            checkLength(length);
            String value = new String(bytes, position, length, StandardCharsets.UTF_8);
            position += length;
            return value;
        }

        private void checkLength(int length) {
            if (length < 0 || length > bytes.length - position) {
                throw new IndexOutOfBoundsException("a value of " + length + " bytes at " + position
                    + " runs past the end of a " + bytes.length + "-byte row");
            }
        }
    }
}
