package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.kafkamv.compiler.CompiledView;
import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.topology.internal.PartialAggregator;
import io.kafkamv.connectors.row.RowSerde;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

class JsonSourceTopologyTest {

    private static final Relation CLICKS = new Relation("clicks",
        new RowSchema(List.of(Column.of("page", SqlType.VARCHAR), Column.of("ms", SqlType.INTEGER)), List.of()),
        Relation.RECORD_POSITION, "clicks-topic", "json", "clicks-dlq");

    @Test
    void malformedRecordsGoToTheDeadLetterTopicAndTheViewGoesOn() {
        String sql = "CREATE MATERIALIZED VIEW per_page AS SELECT page, count(*) AS n, sum(ms) AS total FROM clicks GROUP BY page";
        CompiledView view = new SqlCompiler(() -> List.of(CLICKS), 1)
            .compileView((SqlCreateMaterializedView) SqlStatementParser.parse(sql), sql, 3000);
        Properties properties = new Properties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "json-source-test");
        properties.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        try (TopologyTestDriver driver = new TopologyTestDriver(TopologyFactory.build(view.plan()), properties)) {
            TestInputTopic<String, String> clicks = driver.createInputTopic("clicks-topic", new StringSerializer(),
                new StringSerializer());
            TestOutputTopic<Object[], Object[]> output = driver.createOutputTopic(view.plan().outputTopic(),
                new RowSerde(view.relation().key()).deserializer(),
                new RowSerde(view.relation().schema().columns()).deserializer());
            TestOutputTopic<byte[], byte[]> deadLetters = driver.createOutputTopic("clicks-dlq",
                new ByteArrayDeserializer(), new ByteArrayDeserializer());

            clicks.pipeInput("a", "{\"page\": \"/home\", \"ms\": 10}");
            clicks.pipeInput("b", "{\"page\": \"/home\", \"ms\": \"slow\"}");
            clicks.pipeInput("c", "garbage");
            clicks.pipeInput("d", "{\"page\": \"/home\", \"ms\": 5}");
            clicks.pipeInput("e", "{\"page\": \"/about\"}");
            driver.advanceWallClockTime(PartialAggregator.MAX_HOLD);

            // Latest row per key (keys are arrays: compare them by content).
            java.util.Map<List<Object>, List<Object>> latest = new java.util.HashMap<>();
            output.readKeyValuesToList().forEach(record -> latest.put(java.util.Arrays.asList(record.key),
                List.of(record.value[0], record.value[1], record.value[2] == null ? "null" : record.value[2])));
            List<List<Object>> last = new ArrayList<>(latest.values());
            assertThat(last).containsExactlyInAnyOrder(List.of("/home", 2L, 15L), List.of("/about", 1L, "null"));

            List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
            assertThat(dead).extracting(record -> new String(record.value(), StandardCharsets.UTF_8))
                .containsExactly("{\"page\": \"/home\", \"ms\": \"slow\"}", "garbage");
            assertThat(new String(dead.get(0).headers().lastHeader("kmv.error").value(), StandardCharsets.UTF_8))
                .isEqualTo("field \"ms\" does not fit type integer: \"slow\"");
            assertThat(driver.metrics().entrySet()).filteredOn(metric -> metric.getKey().name().equals("dead-letters-total")
                    && metric.getKey().group().equals("stream-kafkamv-metrics"))
                .singleElement().satisfies(metric -> assertThat(metric.getValue().metricValue()).isEqualTo(2.0));
        }
    }
}
