package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.SqlCreateIndex;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.runtime.IndexKeys;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.row.RowSerde;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

class IndexTopologyTest {

    private static final Column ID = new Column("id", SqlType.BIGINT, false);
    private static final Relation ORDERS = new Relation("orders", new RowSchema(List.of(ID,
        Column.of("customer", SqlType.VARCHAR), Column.of("amount", SqlType.INTEGER)), List.of("id")),
        List.of(ID), "orders-topic");

    @Test
    void anIndexFindsRowsByTheirValuesAndFollowsUpdates() {
        PhysicalPlan plan = compile("CREATE INDEX by_customer ON orders (customer)");
        Properties properties = new Properties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "index-test");
        try (TopologyTestDriver driver = new TopologyTestDriver(TopologyFactory.build(plan), properties)) {
            TestInputTopic<Object[], Object[]> orders = driver.createInputTopic("orders-topic",
                new RowSerde(ORDERS.key()).serializer(), new RowSerde(ORDERS.schema().columns()).serializer());
            orders.pipeInput(new Object[] {1L}, new Object[] {1L, "ann", 5});
            orders.pipeInput(new Object[] {2L}, new Object[] {2L, "bob", 7});
            orders.pipeInput(new Object[] {3L}, new Object[] {3L, "ann", 9});
            orders.pipeInput(new Object[] {3L}, new Object[] {3L, "bob", 9});
            orders.pipeInput(new Object[] {2L}, (Object[]) null);

            KeyValueStore<Bytes, byte[]> index = driver.getKeyValueStore("index");
            IndexKeys keys = new IndexKeys(plan);

            assertThat(lookup(index, keys, plan, "ann")).containsExactly(List.of(1L, "ann", 5));
            assertThat(lookup(index, keys, plan, "bob")).containsExactly(List.of(3L, "bob", 9));
            assertThat(lookup(index, keys, plan, "cy")).isEmpty();
        }
    }

    @Test
    void unknownColumnsArePositioned() {
        assertThatThrownBy(() -> compile("CREATE INDEX i ON orders (nope)"))
            .isInstanceOfSatisfying(CompileException.class, e -> {
                assertThat(e.getMessage()).isEqualTo("column \"nope\" does not exist in orders");
                assertThat(e.position()).isEqualTo(27);
            });
    }

    private static List<List<Object>> lookup(KeyValueStore<Bytes, byte[]> index, IndexKeys keys, PhysicalPlan plan,
                                             String customer) {
        RowCodec rows = new RowCodec(plan.schema().columns());
        List<List<Object>> found = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> entries = index.prefixScan(Bytes.wrap(keys.prefix(new Object[] {customer})),
            new BytesSerializer())) {
            entries.forEachRemaining(entry -> found.add(List.of(rows.decode(entry.value))));
        }
        return found;
    }

    private static PhysicalPlan compile(String sql) {
        return new SqlCompiler(() -> List.of(ORDERS), 1)
            .compileIndex((SqlCreateIndex) SqlStatementParser.parse(sql), sql, 9).plan();
    }
}
