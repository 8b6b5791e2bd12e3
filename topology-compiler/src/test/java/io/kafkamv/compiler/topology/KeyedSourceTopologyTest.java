package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kafkamv.compiler.CompiledView;
import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.plan.SourceScanStep;
import io.kafkamv.connectors.row.RowSerde;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/** A source whose record keys are its primary keys ({@code key.is_primary_key}) keeps its rows where they are read. */
class KeyedSourceTopologyTest {

    private static final String SQL = "CREATE MATERIALIZED VIEW named AS SELECT id, name FROM users";

    @Test
    void aSourceKeyedByItsPrimaryKeyIsNotRepartitionedAndOneThatIsNotIs() {
        assertThat(view(true).plan().steps().get(0)).isInstanceOfSatisfying(SourceScanStep.class,
            scan -> assertThat(scan.keyIsPrimaryKey()).isTrue());
        assertThat(TopologyFactory.build(view(true).plan()).describe().toString()).doesNotContain("repartition");
        assertThat(TopologyFactory.build(view(false).plan()).describe().toString()).contains("repartition");
    }

    @Test
    void rowsAreUpsertedAndDeletedByTheirKeysAndRecordsKeyedOtherwiseAreDeadLetters() {
        CompiledView view = view(true);
        Properties properties = new Properties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "keyed-source-test");
        try (TopologyTestDriver driver = new TopologyTestDriver(TopologyFactory.build(view.plan()), properties)) {
            TestInputTopic<String, String> users = driver.createInputTopic("users-topic", new StringSerializer(),
                new StringSerializer());
            var output = driver.createOutputTopic(view.plan().outputTopic(), new RowSerde(view.relation().key()).deserializer(),
                new RowSerde(view.relation().schema().columns()).deserializer());
            var deadLetters = driver.createOutputTopic("users-dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer());

            users.pipeInput("{\"id\": 1}", "{\"id\": 1, \"name\": \"ann\"}");
            users.pipeInput("{\"id\": 2}", "{\"id\": 2, \"name\": \"bob\"}");
            users.pipeInput("{\"id\": 1}", "{\"id\": 1, \"name\": \"anna\"}");
            users.pipeInput("{\"id\": 2}", (String) null);
            users.pipeInput(new TestRecord<>(null, "{\"id\": 3, \"name\": \"cy\"}", new RecordHeaders().add("trace", bytes("t-1"))));
            users.pipeInput("{\"id\": 4}", "{\"id\": 5, \"name\": \"dee\"}");
            users.pipeInput("four", "{\"id\": 4, \"name\": \"dee\"}");

            Map<List<Object>, Object> latest = new HashMap<>();
            output.readKeyValuesToList().forEach(record -> latest.put(Arrays.asList(record.key),
                record.value == null ? "deleted" : Arrays.asList(record.value)));
            assertThat(latest).containsOnly(Map.entry(List.of(1L), List.of(1L, "anna")), Map.entry(List.of(2L), "deleted"));

            List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
            assertThat(dead).extracting(record -> record.key() == null ? null : text(record.key()), record -> text(record.value()),
                    record -> text(record.headers().lastHeader("kmv.error").value()))
                .containsExactly(
                    org.assertj.core.groups.Tuple.tuple(null, "{\"id\": 3, \"name\": \"cy\"}", "a record without a key, though "
                        + "key.is_primary_key says each record's key is its row's primary key"),
                    org.assertj.core.groups.Tuple.tuple("{\"id\": 4}", "{\"id\": 5, \"name\": \"dee\"}",
                        "the record's key is not its row's primary key (key.is_primary_key): [4] is not [5]"),
                    org.assertj.core.groups.Tuple.tuple("four", "{\"id\": 4, \"name\": \"dee\"}",
                        "record key, not JSON: Unrecognized token 'four': was expecting (JSON String, Number, Array, "
                            + "Object or token 'null', 'true' or 'false')"));
            assertThat(text(dead.get(0).headers().lastHeader("trace").value())).as("the record's own headers stay")
                .isEqualTo("t-1");
        }
    }

    @Test
    void aStepWhoseTopologyAndChecksWouldDisagreeIsNotAPlan() {
        SourceScanStep checked = (SourceScanStep) view(true).plan().steps().get(0);

        assertThatThrownBy(() -> new SourceScanStep(checked.id(), checked.relation(), checked.topic(), checked.format(),
            checked.deadLetterTopic(), checked.schema(), checked.key(), Map.of(), true))
            .hasMessageContaining("keyIsPrimaryKey true disagrees with its format option key.is_primary_key");
    }

    private static CompiledView view(boolean keyIsPrimaryKey) {
        Relation users = new Relation("users",
            new RowSchema(List.of(new Column("id", SqlType.BIGINT, false), Column.of("name", SqlType.VARCHAR)), List.of("id")),
            List.of(new Column("id", SqlType.BIGINT, false)), "users-topic", "json", "users-dlq",
            Map.of("key.is_primary_key", String.valueOf(keyIsPrimaryKey)));
        return new SqlCompiler(() -> List.of(users), 1).compileView((SqlCreateMaterializedView) SqlStatementParser.parse(SQL),
            SQL, 3000);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
