package io.kafkamv.connectors.format;

import java.nio.ByteBuffer;

/**
 * Confluent's framing of a serialized record: a zero magic byte, the schema's registry id as four
 * big-endian bytes, then the Avro binary encoding of the record.
 */
public final class ConfluentWireFormat {

    static final byte MAGIC = 0;
    static final int HEADER = 5;

    private ConfluentWireFormat() {
    }

    public static byte[] frame(int schemaId, byte[] payload) {
        return ByteBuffer.allocate(HEADER + payload.length).put(MAGIC).putInt(schemaId).put(payload).array();
    }

    /** The schema id of a framed record. */
    public static int schemaId(byte[] record) {
        if (record.length < HEADER || record[0] != MAGIC) {
            throw new MalformedRecordException(record.length < HEADER ? "too short for the Confluent wire format"
                : "not in the Confluent wire format: magic byte " + record[0] + " instead of 0");
        }
        return ByteBuffer.wrap(record, 1, 4).getInt();
    }
}
