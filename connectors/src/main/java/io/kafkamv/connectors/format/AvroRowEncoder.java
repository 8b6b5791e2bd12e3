package io.kafkamv.connectors.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;

import io.kafkamv.connectors.registry.SchemaRegistry;
import io.kafkamv.connectors.schema.Column;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaParseException;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Rows as Avro records in Confluent's wire format, for sinks. The record schema is made from the
 * columns and registered under the subject on the first message (the registry answers with the id
 * of an equal schema it already has), and every message names that id.
 *
 * <p>SQL types map to Avro as sources read them back ({@link AvroTypes}): dates, times and
 * timestamps take their logical types, a nullable column is a union with null. Two have no exact
 * Avro type without a declared scale or unit, and are written losslessly instead: a numeric as its
 * decimal text ({@code "12.50"}), an interval as a long of milliseconds.
 */
public final class AvroRowEncoder implements RowEncoder {

    private final List<Column> columns;
    private final Schema schema;
    private final GenericDatumWriter<GenericRecord> writer;
    private final SchemaRegistry registry;
    private final String subject;
    private int schemaId = -1;
    private BinaryEncoder reused;

    public AvroRowEncoder(String recordName, List<Column> columns, SchemaRegistry registry, String subject) {
        this.columns = List.copyOf(columns);
        this.schema = schema(recordName, columns);
        this.writer = new GenericDatumWriter<>(schema);
        this.registry = registry;
        this.subject = subject;
    }

    /**
     * The record schema of these columns, named {@code kafkamv.<recordName>}.
     *
     * @throws IllegalArgumentException when a name is not an Avro name (letters, digits and _)
     */
    public static Schema schema(String recordName, List<Column> columns) {
        try {
            SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.record(recordName).namespace("kafkamv").fields();
            for (Column column : columns) {
                Schema type = type(column);
                if (column.nullable()) {
                    fields = fields.name(column.name()).type(Schema.createUnion(Schema.create(Schema.Type.NULL), type))
                        .withDefault(null);
                } else {
                    fields = fields.name(column.name()).type(type).noDefault();
                }
            }
            return fields.endRecord();
        } catch (SchemaParseException e) {
            throw new IllegalArgumentException("not an Avro name: " + e.getMessage()
                + " (Avro names are letters, digits and _, not starting with a digit)", e);
        }
    }

    private static Schema type(Column column) {
        return switch (column.type()) {
            case BOOLEAN -> Schema.create(Schema.Type.BOOLEAN);
            case SMALLINT, INTEGER -> Schema.create(Schema.Type.INT);
            case BIGINT, INTERVAL -> Schema.create(Schema.Type.LONG);
            case REAL -> Schema.create(Schema.Type.FLOAT);
            case DOUBLE -> Schema.create(Schema.Type.DOUBLE);
            case DECIMAL, VARCHAR, JSONB -> Schema.create(Schema.Type.STRING);
            case DATE -> LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
            case TIME -> LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT));
            case TIMESTAMP -> LogicalTypes.localTimestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
            case TIMESTAMPTZ -> LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
            case BYTEA -> Schema.create(Schema.Type.BYTES);
        };
    }

    public Schema schema() {
        return schema;
    }

    /**
     * Registers the schema under the subject, if it is not there yet, and returns its id: CREATE SINK
     * does this first, so that a registry that refuses it (unreachable, or the schema incompatible
     * with the subject's) is an error there and then, not a failed job later.
     */
    public int register() {
        if (schemaId < 0) {
            schemaId = registry.register(subject, schema.toString());
        }
        return schemaId;
    }

    @Override
    public byte[] encode(Object[] row) {
        register();
        GenericRecord record = new GenericData.Record(schema);
        for (int i = 0; i < columns.size(); i++) {
            record.put(i, value(columns.get(i), row[i]));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        reused = EncoderFactory.get().binaryEncoder(bytes, reused);
        try {
            writer.write(record, reused);
            reused.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ConfluentWireFormat.frame(schemaId, bytes.toByteArray());
    }

    private static Object value(Column column, Object value) {
        if (value == null) {
            return null;
        }
        return switch (column.type()) {
            case SMALLINT, INTEGER, DATE, TIME -> ((Number) value).intValue();
            case BIGINT, INTERVAL, TIMESTAMP, TIMESTAMPTZ -> ((Number) value).longValue();
            case REAL -> ((Number) value).floatValue();
            case DOUBLE -> ((Number) value).doubleValue();
            case DECIMAL -> ((BigDecimal) value).toPlainString();
            case VARCHAR, JSONB -> value.toString();
            case BYTEA -> ByteBuffer.wrap((byte[]) value);
            case BOOLEAN -> value;
        };
    }
}
