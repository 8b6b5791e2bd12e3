package io.kafkamv.connectors.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import io.kafkamv.connectors.registry.SchemaRegistryClient;
import io.kafkamv.connectors.registry.SchemaRegistryServerTestDouble;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

class AvroRowEncoderTest {

    private static final List<Column> COLUMNS = List.of(new Column("id", SqlType.BIGINT, false),
        Column.of("name", SqlType.VARCHAR), Column.of("total", SqlType.DECIMAL), Column.of("day", SqlType.DATE),
        Column.of("at", SqlType.TIMESTAMPTZ), Column.of("raw", SqlType.BYTEA), Column.of("ok", SqlType.BOOLEAN));

    @Test
    void aRowIsAConfluentFramedRecordOfTheRegisteredSchemaThatAvroReadsBackAndOurDecoderToo() throws IOException {
        try (SchemaRegistryServerTestDouble server = SchemaRegistryServerTestDouble.start()) {
            SchemaRegistryClient registry = new SchemaRegistryClient(server.url(), null);
            AvroRowEncoder encoder = new AvroRowEncoder("totals", COLUMNS, registry, "out-value");
            Object[] row = {7L, "ann", new BigDecimal("12.50"), 20_421, 1_764_410_400_000L, new byte[] {1, 2}, true};

            byte[] message = encoder.encode(row);
            byte[] nulls = encoder.encode(new Object[] {8L, null, null, null, null, null, null});

            int id = ConfluentWireFormat.schemaId(message);
            assertThat(message[0]).as("magic byte").isZero();
            assertThat(ConfluentWireFormat.schemaId(nulls)).as("registered once").isEqualTo(id);
            Schema registered = new Schema.Parser().parse(registry.schemaById(id));
            assertThat(registered).isEqualTo(encoder.schema());
            GenericRecord read = new GenericDatumReader<GenericRecord>(registered).read(null, DecoderFactory.get()
                .binaryDecoder(Arrays.copyOfRange(message, ConfluentWireFormat.HEADER, message.length), null));
            assertThat(read.get("id")).isEqualTo(7L);
            assertThat(read.get("name")).hasToString("ann");
            assertThat(read.get("total")).hasToString("12.50");
            assertThat(read.get("day")).isEqualTo(20_421);
            assertThat(read.get("at")).isEqualTo(1_764_410_400_000L);
            assertThat(read.get("raw")).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2}));
            assertThat(read.get("ok")).isEqualTo(true);
            assertThat(new AvroRowDecoder(AvroTypes.columns(registered), registry).decode(nulls))
                .containsExactly(8L, null, null, null, null, null, null);
        }
    }

    @Test
    void aColumnNameAvroCannotTakeIsRefusedWhenTheSchemaIsMade() {
        assertThatThrownBy(() -> AvroRowEncoder.schema("totals", List.of(Column.of("the total", SqlType.BIGINT))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an Avro name");
    }
}
