package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.topology.TopologyGraph.Edge;
import io.kafkamv.compiler.topology.TopologyGraph.Kind;
import io.kafkamv.compiler.topology.TopologyGraph.Node;
import org.junit.jupiter.api.Test;

class TopologyGraphTest {

    private static final Path GOLDEN = Paths.get("src/test/resources/golden/views");

    @Test
    void joinThenAggregateRunsFromBothTablesThroughTheirStepsToTheOutputTopic() throws IOException {
        TopologyGraph graph = TopologyGraph.of(plan("join_aggregate"));

        assertThat(graph.edges()).contains(
            new Edge("topic:kmv-table-orders-1002", "scan-orders"),
            new Edge("scan-orders", "calc-2"),
            new Edge("calc-2", "join-4"),
            new Edge("scan-customers", "join-4"),
            new Edge("join-4", "store:join-4-left-rows"),
            new Edge("aggregate-6", "store:aggregate-6-state"),
            new Edge("aggregate-6", "topic:kmv-view-revenue_by_customer-2000"))
            .as("the view's rows are its aggregate's state").doesNotContain(new Edge("aggregate-6", "store:rows"));
        assertThat(graph.nodes()).filteredOn(node -> node.kind() == Kind.OPERATOR).extracting(Node::detail)
            .contains("scan table orders", "inner join", "aggregate");
        assertEveryEdgeJoinsKnownNodes(graph);
    }

    @Test
    void aSourceSendsItsUnreadableRecordsToItsDeadLetterTopic() throws IOException {
        PhysicalPlan plan = plan("json_source");
        TopologyGraph graph = TopologyGraph.of(plan);

        assertThat(graph.nodes()).filteredOn(node -> node.kind() == Kind.TOPIC).extracting(Node::detail)
            .contains("source clicks", "dead letters of clicks");
        assertEveryEdgeJoinsKnownNodes(graph);
    }

    @Test
    void everyStoreOfTheBuiltTopologyIsInTheGraph() throws IOException {
        for (String view : List.of("join_aggregate", "top_n_per_group", "hop_window", "select_distinct", "sink_debezium")) {
            PhysicalPlan plan = plan(view);
            var description = TopologyFactory.build(plan).describe();
            List<String> stores = description.subtopologies().stream()
                .flatMap(subtopology -> subtopology.nodes().stream())
                .filter(node -> node instanceof org.apache.kafka.streams.TopologyDescription.Processor)
                .flatMap(node -> ((org.apache.kafka.streams.TopologyDescription.Processor) node).stores().stream())
                .distinct().toList();

            TopologyGraph graph = TopologyGraph.of(plan);

            assertThat(graph.nodes()).as(view).filteredOn(node -> node.kind() == Kind.STORE).extracting(Node::label)
                .containsExactlyInAnyOrderElementsOf(stores);
            assertEveryEdgeJoinsKnownNodes(graph);
        }
    }

    private static void assertEveryEdgeJoinsKnownNodes(TopologyGraph graph) {
        List<String> ids = graph.nodes().stream().map(Node::id).toList();
        assertThat(graph.edges()).allSatisfy(edge -> assertThat(ids).contains(edge.from(), edge.to()));
    }

    private static PhysicalPlan plan(String view) throws IOException {
        return PlanJson.fromJson(Files.readString(GOLDEN.resolve(view + ".plan.json"), StandardCharsets.UTF_8));
    }
}
