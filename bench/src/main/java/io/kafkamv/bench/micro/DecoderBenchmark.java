package io.kafkamv.bench.micro;

import io.kafkamv.connectors.format.AvroRowDecoder;
import io.kafkamv.connectors.format.ConfluentWireFormat;
import io.kafkamv.connectors.format.SourceRecordDecoder;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Records per second through the source decoders, for the bench events as JSON and as Avro. */
@State(Scope.Thread)
public class DecoderBenchmark {

    private static final int RECORDS = 1024;
    private static final List<Column> COLUMNS = List.of(
        Column.of("id", SqlType.BIGINT), Column.of("g", SqlType.INTEGER), Column.of("v", SqlType.INTEGER),
        Column.of("name", SqlType.VARCHAR));
    private static final String AVRO_SCHEMA = """
        {"type": "record", "name": "Event", "fields": [
          {"name": "id", "type": "long"}, {"name": "g", "type": "int"}, {"name": "v", "type": "int"},
          {"name": "name", "type": "string"}]}""";

    private final byte[][] json = new byte[RECORDS][];
    private final byte[][] avro = new byte[RECORDS][];
    private SourceRecordDecoder jsonDecoder;
    private AvroRowDecoder avroDecoder;
    private int next;

    @Setup
    public void setUp() throws IOException {
        jsonDecoder = new SourceRecordDecoder(new RowSchema(COLUMNS, List.of()), "json", Map.of());
        avroDecoder = new AvroRowDecoder(COLUMNS, new SchemaRegistryTestDouble(AVRO_SCHEMA));
        Schema schema = new Schema.Parser().parse(AVRO_SCHEMA);
        GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(schema);
        for (int i = 0; i < RECORDS; i++) {
            json[i] = ("{\"id\":" + i + ",\"g\":" + i % 1000 + ",\"v\":" + i % 100 + ",\"name\":\"event-" + i + "\"}")
                .getBytes(StandardCharsets.UTF_8);
            GenericRecord record = new GenericData.Record(schema);
            record.put("id", (long) i);
            record.put("g", i % 1000);
            record.put("v", i % 100);
            record.put("name", "event-" + i);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            writer.write(record, encoder);
            encoder.flush();
            avro[i] = ConfluentWireFormat.frame(1, bytes.toByteArray());
        }
    }

    @Benchmark
    public Object json() {
        int i = next++ & (RECORDS - 1);
        return jsonDecoder.decode(0, i, null, json[i]);
    }

    @Benchmark
    public Object avro() {
        int i = next++ & (RECORDS - 1);
        return avroDecoder.decode(avro[i]);
    }
}
