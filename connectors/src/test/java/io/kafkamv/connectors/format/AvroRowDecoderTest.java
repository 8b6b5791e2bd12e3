package io.kafkamv.connectors.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.List;

import io.kafkamv.connectors.registry.SchemaRegistry;
import io.kafkamv.connectors.registry.SchemaRegistryClient;
import io.kafkamv.connectors.registry.SchemaRegistryServerTestDouble;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class AvroRowDecoderTest {

    private static final String PAYMENT_V1 = """
        {"type": "record", "name": "Payment", "namespace": "shop", "fields": [
          {"name": "id", "type": "string", "logicalType": "uuid"},
          {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}},
          {"name": "day", "type": {"type": "int", "logicalType": "date"}},
          {"name": "at", "type": {"type": "long", "logicalType": "timestamp-micros"}},
          {"name": "tags", "type": {"type": "array", "items": "string"}},
          {"name": "method", "type": {"type": "enum", "name": "Method", "symbols": ["CARD", "CASH"]}}
        ]}""";
    private static final String PAYMENT_V2 = PAYMENT_V1.replace("\n]}",
        ",\n  {\"name\": \"note\", \"type\": [\"null\", \"string\"], \"default\": null}\n]}");

    @Test
    void theWireFormatIsByteForByteConfluents() throws IOException {
        Schema schema = new Schema.Parser().parse(PAYMENT_V1);
        byte[] avro = avroBinary(schema, payment(schema, "12.50"));

        byte[] framed = ConfluentWireFormat.frame(258, avro);

        byte[] expected = ByteBuffer.allocate(5 + avro.length).put((byte) 0).put(new byte[] {0, 0, 1, 2}).put(avro).array();
        assertThat(framed).isEqualTo(expected);
        assertThat(ConfluentWireFormat.schemaId(framed)).isEqualTo(258);
        assertThatThrownBy(() -> ConfluentWireFormat.schemaId(new byte[] {1, 0, 0, 0, 1, 9}))
            .isInstanceOf(MalformedRecordException.class).hasMessageContaining("magic byte 1");
    }

    @Test
    void columnsComeFromTheSchemaAndRowsFromRecordsOfEveryVersion() throws Exception {
        try (SchemaRegistryServerTestDouble server = SchemaRegistryServerTestDouble.start()) {
            SchemaRegistry registry = new SchemaRegistryClient(server.url(), null);
            Schema v1 = new Schema.Parser().parse(PAYMENT_V1);
            Schema v2 = new Schema.Parser().parse(PAYMENT_V2);
            int id1 = registry.register("payments-value", PAYMENT_V1);
            int id2 = registry.register("payments-value", PAYMENT_V2);
            List<Column> columns = AvroTypes.columns(new Schema.Parser().parse(registry.latest("payments-value").schema()));

            assertThat(columns).containsExactly(new Column("id", SqlType.VARCHAR, false),
                new Column("amount", SqlType.DECIMAL, false), new Column("day", SqlType.DATE, false),
                new Column("at", SqlType.TIMESTAMPTZ, false), new Column("tags", SqlType.JSONB, false),
                new Column("method", SqlType.VARCHAR, false), new Column("note", SqlType.VARCHAR, true));

            AvroRowDecoder decoder = new AvroRowDecoder(columns, registry);
            Object[] old = decoder.decode(ConfluentWireFormat.frame(id1, avroBinary(v1, payment(v1, "12.50"))));
            GenericRecord newer = payment(v2, "0.99");
            newer.put("note", "gift");
            Object[] current = decoder.decode(ConfluentWireFormat.frame(id2, avroBinary(v2, newer)));

            assertThat(old).containsExactly("7c9e6679-7425-40de-944b-e07fc1f90ae7", new BigDecimal("12.50"), 20_421,
                1_764_410_400_123L, "[\"a\", \"b\"]", "CARD", null);
            assertThat(current[1]).isEqualTo(new BigDecimal("0.99"));
            assertThat(current[6]).isEqualTo("gift");
            assertThatThrownBy(() -> decoder.decode(new byte[] {0, 0, 0, 0, (byte) id1, 42}))
                .isInstanceOf(MalformedRecordException.class).hasMessageContaining("not Avro of schema " + id1);
        }
    }

    private static GenericRecord payment(Schema schema, String amount) {
        GenericRecord record = new GenericData.Record(schema);
        record.put("id", "7c9e6679-7425-40de-944b-e07fc1f90ae7");
        BigDecimal decimal = new BigDecimal(amount);
        record.put("amount", ByteBuffer.wrap(decimal.unscaledValue().toByteArray()));
        record.put("day", 20_421);
        record.put("at", 1_764_410_400_123_456L);
        record.put("tags", List.of("a", "b"));
        record.put("method", new GenericData.EnumSymbol(schema.getField("method").schema(), "CARD"));
        return record;
    }

    private static byte[] avroBinary(Schema schema, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
