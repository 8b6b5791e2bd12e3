package io.kafkamv.it.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kafkamv.connectors.format.ConfluentWireFormat;
import io.kafkamv.connectors.registry.SchemaRegistryClient;
import io.kafkamv.connectors.registry.SchemaRegistryServerTestDouble;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Avro topic with its schemas in a Schema Registry (the in-process test double: the real one
 * cannot run here) read as a source whose columns come from the registry, through a schema
 * evolution and a poison record.
 */
class AvroSourceIT {

    private static final String V1 = """
        {"type": "record", "name": "Payment", "namespace": "shop", "fields": [
          {"name": "id", "type": "long"},
          {"name": "channel", "type": "string"},
          {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}}
        ]}""";
    private static final String V2 = V1.replace("\n]}",
        ",\n  {\"name\": \"note\", \"type\": [\"null\", \"string\"], \"default\": null}\n]}");

    @TempDir
    Path workDir;

    @Test
    void aViewOverAnAvroTopicFollowsItThroughASchemaEvolution() throws Exception {
        try (SchemaRegistryServerTestDouble registry = SchemaRegistryServerTestDouble.start();
             ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            SchemaRegistryClient client = new SchemaRegistryClient(registry.url(), null);
            int v1 = client.register("payments-value", V1);
            String kafka = paymentsTopic(service);
            Schema schema1 = new Schema.Parser().parse(V1);
            produce(kafka, payment(schema1, v1, 1, "card", "10.50"), payment(schema1, v1, 2, "cash", "3.00"),
                payment(schema1, v1, 3, "card", "1.25"));
            Psql psql = new Psql(service.pgPort());

            Psql.Result created = psql.session(List.of(
                "CREATE SOURCE payments WITH (connector = 'kafka', topic = 'payments', format = 'avro', "
                    + "schema.registry = '" + registry.url() + "', primary_key = 'id')",
                "CREATE MATERIALIZED VIEW per_channel AS SELECT channel, count(*) AS n, sum(amount) AS total "
                    + "FROM payments GROUP BY channel",
                "SELECT channel, n, total FROM per_channel ORDER BY channel"), "-A", "-t");
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(created.stdout()).isEqualTo("CREATE SOURCE\nCREATE MATERIALIZED VIEW\ncard|2|11.75\ncash|1|3.00\n");
            assertThat(psql.value("SELECT channel || ' ' || amount FROM payments WHERE id = 2"))
                .as("columns from the registry").isEqualTo("cash 3.00");

            int v2 = client.register("payments-value", V2);
            Schema schema2 = new Schema.Parser().parse(V2);
            GenericRecord withNote = record(schema2, 4, "cash", "2.00");
            withNote.put("note", "tip");
            produce(kafka, frame(schema2, v2, withNote), payment(schema1, v1, 1, "cash", "10.50"),
                new byte[] {9, 9, 9});
            await().atMost(Duration.ofSeconds(30)).until(
                () -> psql.run("SELECT channel, n, total FROM per_channel ORDER BY channel", "-A", "-t").stdout(),
                "card|1|1.25\ncash|3|15.50\n"::equals);
        }
    }

    @Test
    void aRegistryOutageDelaysTheViewAndLosesNothing() throws Exception {
        try (SchemaRegistryServerTestDouble registry = SchemaRegistryServerTestDouble.start();
             ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            SchemaRegistryClient client = new SchemaRegistryClient(registry.url(), null);
            int v1 = client.register("payments-value", V1);
            String kafka = paymentsTopic(service);
            Schema schema1 = new Schema.Parser().parse(V1);
            produce(kafka, payment(schema1, v1, 1, "card", "10.50"));
            Psql psql = new Psql(service.pgPort());
            Psql.Result created = psql.session(List.of(
                "CREATE SOURCE payments WITH (connector = 'kafka', topic = 'payments', format = 'avro', "
                    + "schema.registry = '" + registry.url() + "', primary_key = 'id')",
                "CREATE MATERIALIZED VIEW paid AS SELECT count(*) AS n, sum(amount) AS total FROM payments"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(psql.value("SELECT n FROM paid")).isEqualTo("1");

            int v2 = client.register("payments-value", V2);
            registry.makeUnavailable(true);
            Schema schema2 = new Schema.Parser().parse(V2);
            produce(kafka, frame(schema2, v2, record(schema2, 2, "cash", "2.00")), payment(schema1, v1, 3, "card", "1.25"));
            // The record of the new schema cannot be read until the registry is back: the view waits, retrying.
            await().atMost(Duration.ofSeconds(60)).until(registry::refusedRequests, refused -> refused >= 2);
            assertThat(psql.value("SELECT n FROM paid")).as("nothing skipped while the registry is down").isEqualTo("1");

            registry.makeUnavailable(false);
            await().atMost(Duration.ofSeconds(90)).until(() -> psql.value("SELECT n || ' ' || total FROM paid"),
                "3 13.75"::equals);

            // A schema id the registry does not have is the record's fault: it goes to the dead letters.
            produce(kafka, frame(schema1, 999_999, record(schema1, 4, "card", "5.00")), payment(schema1, v1, 5, "cash", "1.00"));
            await().atMost(Duration.ofSeconds(60)).until(() -> psql.value("SELECT n || ' ' || total FROM paid"),
                "4 14.75"::equals);
            assertThat(psql.run("SHOW SOURCES", "-A", "-t").stdout()).contains("payments|payments|avro|1");
        }
    }

    /** Creates the topic {@code payments}; returns the broker's address. */
    private static String paymentsTopic(ServiceProcess service) throws Exception {
        String kafka = service.bootstrapServers();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            admin.createTopics(List.of(new NewTopic("payments", 1, (short) 1))).all().get();
        }
        return kafka;
    }

    private static byte[] payment(Schema schema, int id, long paymentId, String channel, String amount) throws IOException {
        return frame(schema, id, record(schema, paymentId, channel, amount));
    }

    private static GenericRecord record(Schema schema, long id, String channel, String amount) {
        GenericRecord record = new GenericData.Record(schema);
        record.put("id", id);
        record.put("channel", channel);
        record.put("amount", java.nio.ByteBuffer.wrap(new java.math.BigDecimal(amount).unscaledValue().toByteArray()));
        return record;
    }

    private static byte[] frame(Schema schema, int id, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
        encoder.flush();
        return ConfluentWireFormat.frame(id, out.toByteArray());
    }

    private static void produce(String kafka, byte[]... values) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka, ProducerConfig.ACKS_CONFIG, "all"),
            new ByteArraySerializer(), new ByteArraySerializer())) {
            for (byte[] value : values) {
                producer.send(new ProducerRecord<>("payments", value)).get();
            }
        }
    }
}
