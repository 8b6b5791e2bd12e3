package io.kafkamv.connectors.format;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.kafkamv.connectors.registry.SchemaRegistry;
import io.kafkamv.connectors.registry.SchemaRegistryException;
import io.kafkamv.connectors.schema.Column;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Reads Avro records in the Confluent wire format into rows. Each record is read with the schema it
 * was written with, fetched from the registry by its id, and its fields are matched to the columns
 * by name: a field the writer did not have is NULL, a field the columns do not have is skipped, so
 * a running view survives the schema evolutions the registry's compatibility rules allow.
 */
public final class AvroRowDecoder {

    private final List<Column> columns;
    private final SchemaRegistry registry;
    private final Map<Integer, GenericDatumReader<Object>> readers = new ConcurrentHashMap<>();

    public AvroRowDecoder(List<Column> columns, SchemaRegistry registry) {
        this.columns = List.copyOf(columns);
        this.registry = registry;
    }

    public Object[] decode(byte[] record) {
        int id = ConfluentWireFormat.schemaId(record);
        GenericDatumReader<Object> reader;
        try {
            reader = readers.computeIfAbsent(id,
                key -> new GenericDatumReader<>(new Schema.Parser().parse(registry.schemaById(key))));
        } catch (SchemaRegistryException e) {
            // An id the registry does not have is the record's fault. Anything else is not (a registry that
            // is down, credentials it refuses) and must not send the topic to the dead letters.
            if (e.status() != 404) {
                throw e;
            }
            throw new MalformedRecordException("its schema id " + id + " is not in the registry: " + e.getMessage());
        }
        Object value;
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(record, ConfluentWireFormat.HEADER,
                record.length - ConfluentWireFormat.HEADER, null);
            value = reader.read(null, decoder);
        } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException e) {
            throw new MalformedRecordException("not Avro of schema " + id + ": " + e.getMessage());
        }
        Object[] row = new Object[columns.size()];
        if (!(value instanceof GenericRecord fields)) {
            // A key of a primitive type: the single key column.
            if (columns.size() != 1) {
                throw new MalformedRecordException("an Avro " + reader.getSchema().getType() + " cannot fill "
                    + columns.size() + " columns");
            }
            row[0] = value(value, reader.getSchema(), columns.get(0));
            return row;
        }
        for (int i = 0; i < row.length; i++) {
            Column column = columns.get(i);
            Schema.Field field = fields.getSchema().getField(column.name());
            Object fieldValue = field == null ? null : fields.get(field.pos());
            if (fieldValue == null && !column.nullable()) {
                throw new MalformedRecordException("field \"" + column.name() + "\" is missing or null");
            }
            row[i] = fieldValue == null ? null : value(fieldValue, field.schema(), column);
        }
        return row;
    }

    /** An Avro value in the form rows hold its column's type. */
    private static Object value(Object value, Schema schema, Column column) {
        Schema type = branch(value, schema);
        LogicalType logical = type.getLogicalType();
        try {
            return switch (column.type()) {
                case BOOLEAN -> (Boolean) value;
                case SMALLINT -> ((Number) value).shortValue();
                case INTEGER -> ((Number) value).intValue();
                case BIGINT -> ((Number) value).longValue();
                case REAL -> ((Number) value).floatValue();
                case DOUBLE -> ((Number) value).doubleValue();
                case DECIMAL -> logical instanceof LogicalTypes.Decimal decimal
                    ? new BigDecimal(new BigInteger(bytes(value)), decimal.getScale())
                    : new BigDecimal(value.toString());
                case VARCHAR -> value.toString();
                case JSONB -> GenericData.get().toString(value);
                case DATE -> ((Number) value).intValue();
                case TIME -> (int) (logical != null && logical.getName().equals("time-micros")
                    ? ((Number) value).longValue() / 1000 : ((Number) value).longValue());
                case TIMESTAMP, TIMESTAMPTZ -> millis(((Number) value).longValue(), logical);
                case INTERVAL -> ((Number) value).longValue();
                case BYTEA -> bytes(value);
            };
        } catch (ClassCastException e) {
            throw new MalformedRecordException("field \"" + column.name() + "\" of Avro type " + type.getType()
                + " does not fit type " + column.type().postgresName());
        }
    }

    private static long millis(long value, LogicalType logical) {
        if (logical == null) {
            return value;
        }
        return switch (logical.getName()) {
            case "timestamp-micros", "local-timestamp-micros" -> Math.floorDiv(value, 1000L);
            case "timestamp-nanos", "local-timestamp-nanos" -> Math.floorDiv(value, 1_000_000L);
            default -> value;
        };
    }

    /** The branch of a union a value was written as, or the schema itself. */
    private static Schema branch(Object value, Schema schema) {
        if (schema.getType() != Schema.Type.UNION) {
            return schema;
        }
        return schema.getTypes().get(GenericData.get().resolveUnion(schema, value));
    }

    private static byte[] bytes(Object value) {
        if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return bytes;
        }
        return ((GenericFixed) value).bytes();
    }
}
