package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.SqlCreateSink;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.connectors.row.RowSerde;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

class SinkTopologyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Column ID = new Column("id", SqlType.BIGINT, false);
    private static final Relation ORDERS = new Relation("orders", new RowSchema(List.of(ID,
        Column.of("customer", SqlType.VARCHAR), Column.of("amount", SqlType.DECIMAL)), List.of("id")),
        List.of(ID), "orders-topic");
    private static final Relation EVENTS = new Relation("events", new RowSchema(List.of(
        Column.of("kind", SqlType.VARCHAR)), List.of()), List.of(Relation.ROW_ID), "events-topic");

    @Test
    void upsertSinksWriteTheLatestRowPerKeyAndTombstonesForDeletes() throws Exception {
        List<KeyValue<String, String>> messages = run("CREATE SINK s AS SELECT customer, sum(amount) AS total "
            + "FROM orders GROUP BY customer WITH (topic = 'out')", orders -> {
                orders.pipeInput(new Object[] {1L}, new Object[] {1L, "ann", new java.math.BigDecimal("2.50")});
                orders.pipeInput(new Object[] {2L}, new Object[] {2L, "ann", new java.math.BigDecimal("1.25")});
                orders.pipeInput(new Object[] {1L}, (Object[]) null);
                orders.pipeInput(new Object[] {2L}, (Object[]) null);
            });

        assertThat(messages).containsExactly(
            KeyValue.pair("{\"customer\":\"ann\"}", "{\"customer\":\"ann\",\"total\":2.50}"),
            KeyValue.pair("{\"customer\":\"ann\"}", "{\"customer\":\"ann\",\"total\":3.75}"),
            KeyValue.pair("{\"customer\":\"ann\"}", "{\"customer\":\"ann\",\"total\":1.25}"),
            KeyValue.pair("{\"customer\":\"ann\"}", null));
    }

    @Test
    void debeziumSinksCarryBeforeAfterAndOp() throws Exception {
        List<KeyValue<String, String>> messages = run("CREATE SINK s FROM orders "
            + "WITH (topic = 'out', type = 'debezium')", orders -> {
                orders.pipeInput(new Object[] {1L}, new Object[] {1L, "ann", new java.math.BigDecimal("2")});
                orders.pipeInput(new Object[] {1L}, new Object[] {1L, "bob", new java.math.BigDecimal("2")});
                orders.pipeInput(new Object[] {1L}, (Object[]) null);
            });

        assertThat(messages).hasSize(4);
        assertThat(messages).extracting(message -> message.key).containsOnly("{\"id\":1}");
        JsonNode update = JSON.readTree(messages.get(1).value);
        assertThat(update.get("op").asText()).isEqualTo("u");
        assertThat(update.at("/before/customer").asText()).isEqualTo("ann");
        assertThat(update.at("/after/customer").asText()).isEqualTo("bob");
        JsonNode delete = JSON.readTree(messages.get(2).value);
        assertThat(delete.get("op").asText()).isEqualTo("d");
        assertThat(delete.get("after").isNull()).isTrue();
        assertThat(messages.get(3).value).as("tombstone after a delete, for compaction").isNull();
    }

    @Test
    void appendOnlySinksRefuseQueriesWhoseRowsChange() {
        String sql = "CREATE SINK s AS SELECT customer, count(*) AS n FROM orders GROUP BY customer "
            + "WITH (topic = 'out', type = 'append-only')";
        assertThatThrownBy(() -> compile(sql))
            .isInstanceOfSatisfying(CompileException.class, e -> {
                assertThat(e.category()).isEqualTo(CompileException.Category.INVALID_OPTION);
                assertThat(e.hint()).hasValueSatisfying(hint -> assertThat(hint).contains("force_append_only"));
            });
        assertThat(compile("CREATE SINK s AS SELECT upper(kind) AS k FROM events "
            + "WITH (topic = 'out', type = 'append-only')").sink().keyColumns()).isEmpty();
    }

    @Test
    void upsertSinksNeedAKeyAmongTheirColumns() {
        assertThatThrownBy(() -> compile("CREATE SINK s AS SELECT kind FROM events WITH (topic = 'out')"))
            .hasMessage("the sink's rows have no key among their columns");
        assertThat(compile("CREATE SINK s AS SELECT kind FROM events WITH (topic = 'out', primary_key = 'kind')")
            .sink().keyColumns()).containsExactly("kind");
    }

    private static PhysicalPlan compile(String sql) {
        return new SqlCompiler(() -> List.of(ORDERS, EVENTS), 1)
            .compileSink((SqlCreateSink) SqlStatementParser.parse(sql), sql, 7).plan();
    }

    private static List<KeyValue<String, String>> run(String sql,
                                                      java.util.function.Consumer<TestInputTopic<Object[], Object[]>> input) {
        PhysicalPlan plan = compile(sql);
        Properties properties = new Properties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "sink-test");
        properties.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        try (TopologyTestDriver driver = new TopologyTestDriver(TopologyFactory.build(plan), properties)) {
            input.accept(driver.createInputTopic("orders-topic", new RowSerde(ORDERS.key()).serializer(),
                new RowSerde(ORDERS.schema().columns()).serializer()));
            return driver.createOutputTopic("out", new ByteArrayDeserializer(), new ByteArrayDeserializer())
                .readKeyValuesToList().stream()
                .map(record -> KeyValue.pair(text(record.key), text(record.value)))
                .toList();
        }
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
