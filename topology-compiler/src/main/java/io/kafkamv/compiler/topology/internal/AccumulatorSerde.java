package io.kafkamv.compiler.topology.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Accumulators in state stores and changelogs: counts, sums and value multisets, each value tagged with its type. */
public final class AccumulatorSerde implements Serde<Accumulator> {

    private static final byte NULL = 0;
    private static final byte INT = 1;
    private static final byte LONG = 2;
    private static final byte DOUBLE = 3;
    private static final byte DECIMAL = 4;
    private static final byte STRING = 5;
    private static final byte BOOLEAN = 6;
    private static final byte SHORT = 7;
    private static final byte FLOAT = 8;

    private final int calls;

    public AccumulatorSerde(int calls) {
        this.calls = calls;
    }

    @Override
    public Serializer<Accumulator> serializer() {
        return (topic, accumulator) -> accumulator == null ? null : encode(accumulator);
    }

    @Override
    public Deserializer<Accumulator> deserializer() {
        return (topic, bytes) -> bytes == null ? null : decode(bytes);
    }

    private byte[] encode(Accumulator accumulator) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(accumulator.rows);
            for (int i = 0; i < calls; i++) {
                out.writeLong(accumulator.nonNull[i]);
                writeValue(out, accumulator.sums[i]);
                TreeMap<Object, Long> values = accumulator.values[i];
                out.writeInt(values == null ? -1 : values.size());
                if (values != null) {
                    for (Map.Entry<Object, Long> entry : values.entrySet()) {
                        writeValue(out, entry.getKey());
                        out.writeLong(entry.getValue());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * How many rows the accumulator encoded at {@code offset} holds, read without decoding the rest: a store keeps
     * a group whose rows were all retracted (see {@link Accumulator#rows}).
     */
    public static long rows(byte[] bytes, int offset) {
        long rows = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            rows = rows << 8 | (bytes[offset + i] & 0xFF);
        }
        return rows;
    }

    private Accumulator decode(byte[] bytes) {
        return decode(bytes, 0);
    }

    /** The accumulator encoded at {@code offset} of {@code bytes}, to their end (a store keeps a timestamp before it). */
    public Accumulator decode(byte[] bytes, int offset) {
        Accumulator accumulator = new Accumulator(calls);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, offset, bytes.length - offset))) {
            accumulator.rows = in.readLong();
            for (int i = 0; i < calls; i++) {
                accumulator.nonNull[i] = in.readLong();
                accumulator.sums[i] = readValue(in);
                int size = in.readInt();
                if (size >= 0) {
                    TreeMap<Object, Long> values = new TreeMap<>();
                    for (int j = 0; j < size; j++) {
                        values.put(readValue(in), in.readLong());
                    }
                    accumulator.values[i] = values;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return accumulator;
    }

    private static void writeValue(DataOutputStream out, Object value) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof Integer v) {
            out.writeByte(INT);
            out.writeInt(v);
        } else if (value instanceof Long v) {
            out.writeByte(LONG);
            out.writeLong(v);
        } else if (value instanceof Double v) {
            out.writeByte(DOUBLE);
            out.writeDouble(v);
        } else if (value instanceof BigDecimal v) {
            out.writeByte(DECIMAL);
            out.writeInt(v.scale());
            byte[] unscaled = v.unscaledValue().toByteArray();
            out.writeInt(unscaled.length);
            out.write(unscaled);
        } else if (value instanceof String v) {
            out.writeByte(STRING);
            out.writeUTF(v);
        } else if (value instanceof Boolean v) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(v);
        } else if (value instanceof Short v) {
            out.writeByte(SHORT);
            out.writeShort(v);
        } else if (value instanceof Float v) {
            out.writeByte(FLOAT);
            out.writeFloat(v);
        } else {
            throw new IllegalArgumentException("Cannot aggregate values of " + value.getClass().getName());
        }
    }

    private static Object readValue(DataInputStream in) throws IOException {
        byte tag = in.readByte();
        return switch (tag) {
            case NULL -> null;
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case DOUBLE -> in.readDouble();
            case DECIMAL -> {
                int scale = in.readInt();
                byte[] unscaled = new byte[in.readInt()];
                in.readFully(unscaled);
                yield new BigDecimal(new BigInteger(unscaled), scale);
            }
            case STRING -> in.readUTF();
            case BOOLEAN -> in.readBoolean();
            case SHORT -> in.readShort();
            case FLOAT -> in.readFloat();
            default -> throw new IllegalStateException("Unknown value tag " + tag + " in an accumulator");
        };
    }
}
