package io.kafkamv.connectors.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.embedded.junit.EmbeddedKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JDBC sink against a real broker and the real PostgreSQL that {@code .ci/run} starts: it outlives a database
 * that refuses its writes for longer than {@code max.poll.interval.ms}, and reports what stops it.
 */
class JdbcSinkIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.singleNode();

    private static final String URL = TestPostgres.URL;
    private static final String USER = TestPostgres.USER;
    private static final String PASSWORD = TestPostgres.PASSWORD;
    private static final Duration MAX_POLL_INTERVAL = Duration.ofSeconds(3);

    @Test
    void aSinkKeepsItsPartitionsWhileTheDatabaseRefusesItsWritesAndCatchesUpAfter(TestInfo test) throws Exception {
        String table = table(test);
        String topic = topic(table);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (JdbcSink sink = sink(topic, table, failure::set); Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            sink.start();
            send(topic, "{\"k\":1}", "{\"k\":1,\"v\":\"one\"}");
            await().atMost(Duration.ofSeconds(30)).until(() -> rows(table), rows -> rows.equals(List.of("1|one")));

            execute("ALTER TABLE " + table + " RENAME TO " + table + "_away");
            send(topic, "{\"k\":1}", "{\"k\":1,\"v\":\"uno\"}");
            send(topic, "{\"k\":2}", "{\"k\":2,\"v\":\"two\"}");
            // Longer than max.poll.interval.ms: a sink that stopped polling while it retried would leave the group.
            await().during(MAX_POLL_INTERVAL.multipliedBy(2)).atMost(MAX_POLL_INTERVAL.multipliedBy(4))
                .until(() -> hasAssignedMember(admin, groupId(table)));

            execute("ALTER TABLE " + table + "_away RENAME TO " + table);
            await().atMost(Duration.ofSeconds(30)).until(() -> rows(table), rows -> rows.equals(List.of("1|uno", "2|two")));
            send(topic, "{\"k\":2}", null);
            await().atMost(Duration.ofSeconds(30)).until(() -> rows(table), rows -> rows.equals(List.of("1|uno")));
            assertThat(failure.get()).isNull();
        }
    }

    @Test
    void whatStopsASinkReachesItsOwner(TestInfo test) throws Exception {
        String table = table(test);
        String topic = topic(table);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (JdbcSink sink = sink(topic, table, failure::set)) {
            sink.start();
            send(topic, "not json", "{\"k\":1,\"v\":\"one\"}");
            await().atMost(Duration.ofSeconds(30)).until(() -> failure.get() != null);
            assertThat(failure.get()).hasMessageContaining("JSON");
        }
    }

    private static JdbcSink sink(String topic, String table, Consumer<Throwable> onFailure) {
        Properties client = KAFKA.cluster().clientProperties();
        client.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) MAX_POLL_INTERVAL.toMillis());
        client.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        List<Column> columns = List.of(Column.of("k", SqlType.BIGINT), Column.of("v", SqlType.VARCHAR));
        return new JdbcSink(client, topic, groupId(table), "member-1",
            new JdbcTarget(URL, USER, PASSWORD, table, columns, List.of("k")), onFailure);
    }

    private static String table(TestInfo test) throws Exception {
        String table = "kmv_sink_" + test.getTestMethod().orElseThrow().getName().toLowerCase().substring(0, 20);
        execute("DROP TABLE IF EXISTS " + table, "DROP TABLE IF EXISTS " + table + "_away",
            "CREATE TABLE " + table + " (k BIGINT PRIMARY KEY, v TEXT)");
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            admin.createTopics(List.of(new NewTopic(topic(table), 2, (short) 1))).all().get();
        }
        return table;
    }

    private static String topic(String table) {
        return "changes-" + table;
    }

    private static String groupId(String table) {
        return "sink-" + table;
    }

    private static boolean hasAssignedMember(Admin admin, String groupId) throws Exception {
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(groupId)).all().get().get(groupId);
        return group.members().stream().anyMatch(member -> !member.assignment().topicPartitions().isEmpty());
    }

    private static void send(String topic, String key, String value) throws Exception {
        Properties properties = KAFKA.cluster().clientProperties();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
            new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        }
    }

    private static List<String> rows(String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = TestPostgres.connect();
             Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT k || '|' || v FROM " + table + " ORDER BY k")) {
            while (result.next()) {
                rows.add(result.getString(1));
            }
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                return List.of();
            }
            throw e;
        }
        return rows;
    }

    private static void execute(String... statements) throws SQLException {
        TestPostgres.execute(statements);
    }
}
