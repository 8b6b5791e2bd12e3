package io.kafkamv.it.sources;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Topics whose values are not structured: log lines read as text ({@code format = 'string'}) and
 * opaque payloads as {@code bytea} ({@code format = 'bytes'}), each record a new row; a value that is
 * not UTF-8 text is set aside like any malformed record.
 */
class WholeValueSourcesIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void logLinesAndPayloadsBecomeRowsOfOneColumn() throws Exception {
        String kafka = SERVICE.service().bootstrapServers();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            admin.createTopics(List.of(new NewTopic("access-log", 2, (short) 1))).all().get();
        }
        produce(kafka, "GET /home 200".getBytes(StandardCharsets.UTF_8), "GET /cart 500".getBytes(StandardCharsets.UTF_8),
            "POST /cart 200".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xC3, (byte) 0x28});
        Psql psql = SERVICE.psql();

        Psql.Result created = psql.session(List.of(
            "CREATE SOURCE access_lines (line TEXT) WITH (connector = 'kafka', topic = 'access-log', format = 'string')",
            "CREATE SOURCE access_bytes (payload BYTEA) WITH (connector = 'kafka', topic = 'access-log', format = 'bytes')",
            "CREATE MATERIALIZED VIEW errors AS SELECT count(*) AS n FROM access_lines WHERE line LIKE '% 500'",
            "CREATE MATERIALIZED VIEW sizes AS SELECT count(*) AS n, sum(octet_length(payload)) AS total FROM access_bytes",
            "SELECT n FROM errors",
            "SELECT n || ',' || total FROM sizes"), "-A", "-t");

        assertThat(created.exitCode()).as(created.stderr()).isZero();
        assertThat(created.stdout()).endsWith("1\n4,42\n");
        assertThat(psql.run("SHOW SOURCES", "-A", "-t").stdout())
            .contains("access_lines|access-log|string|1").contains("access_bytes|access-log|bytes|0");

        Psql.Result wrong = psql.run("CREATE SOURCE two (a TEXT, b TEXT) WITH (connector = 'kafka', "
            + "topic = 'access-log', format = 'string')");
        assertThat(wrong.stderr()).contains("a string source has exactly one column, of type character varying")
            .contains("HINT:  e.g. CREATE SOURCE lines (line TEXT)");
    }

    private static void produce(String kafka, byte[]... values) throws Exception {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (byte[] value : values) {
                producer.send(new ProducerRecord<>("access-log", null, value)).get();
            }
        }
    }
}
