package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import io.kafkamv.compiler.CompiledView;
import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.plan.IndexOutput;
import io.kafkamv.compiler.topology.TopologyFactory.PrefixedPlan;
import io.kafkamv.compiler.topology.internal.PartialAggregator;
import io.kafkamv.connectors.row.RowSerde;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/** Several views in one topology: each reads and computes as it does alone, and keeps the names it has alone. */
class SharedTopologyTest {

    private static final Relation CLICKS = new Relation("clicks",
        new RowSchema(List.of(Column.of("page", SqlType.VARCHAR), Column.of("ms", SqlType.INTEGER)), List.of()),
        Relation.RECORD_POSITION, "clicks-topic", "json", "clicks-dlq");
    /** The same topic declared with other columns: read another way. */
    private static final Relation CLICK_PAGES = new Relation("click_pages",
        new RowSchema(List.of(Column.of("page", SqlType.VARCHAR)), List.of()),
        Relation.RECORD_POSITION, "clicks-topic", "json", "clicks-dlq");
    private static final Relation PAGES = new Relation("pages",
        new RowSchema(List.of(Column.of("page", SqlType.VARCHAR), Column.of("owner", SqlType.VARCHAR)), List.of("page")),
        List.of(Column.of("page", SqlType.VARCHAR)), "kmv-table-pages");

    private static final String PER_PAGE = "CREATE MATERIALIZED VIEW per_page AS "
        + "SELECT page, count(*) AS n, sum(ms) AS total FROM clicks GROUP BY page";
    private static final String SLOW = "CREATE MATERIALIZED VIEW slow AS SELECT page, ms FROM clicks WHERE ms > 100";
    private static final String TOTAL = "CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n FROM clicks";
    private static final String OWNED = "CREATE MATERIALIZED VIEW owned AS "
        + "SELECT p.owner, count(*) AS n FROM clicks c JOIN pages p ON c.page = p.page GROUP BY p.owner";

    private static final List<String[]> CLICK_RECORDS = List.of(
        new String[] {"a", "{\"page\": \"/home\", \"ms\": 10}"},
        new String[] {"b", "{\"page\": \"/home\", \"ms\": 300}"},
        new String[] {"c", "garbage"},
        new String[] {"d", "{\"page\": \"/about\", \"ms\": 150}"},
        new String[] {"e", "{\"page\": \"/about\"}"});

    @Test
    void viewsInOneTopologyComputeWhatEachComputesAloneFromOneReadOfTheirTopic() {
        List<CompiledView> views = List.of(view(PER_PAGE, 7), view(SLOW, 8), view(TOTAL, 9), view(OWNED, 10));
        Topology shared = TopologyFactory.buildShared(List.of(new PrefixedPlan("job-7-", views.get(0).plan(), noErrors()),
            new PrefixedPlan("job-8-", views.get(1).plan(), noErrors()), new PrefixedPlan("job-9-", views.get(2).plan(), noErrors()),
            new PrefixedPlan("job-10-", views.get(3).plan(), noErrors())));

        assertThat(sourceNodesOf(shared, "clicks-topic")).hasSize(1);
        Map<String, Map<List<Object>, List<Object>>> together = run(shared, views);
        for (CompiledView view : views) {
            Map<String, Map<List<Object>, List<Object>>> alone = run(TopologyFactory.build(view.plan(), noErrors()),
                List.of(view));
            assertThat(together.get(view.plan().view())).as(view.plan().view())
                .isNotEmpty().isEqualTo(alone.get(view.plan().view()));
        }
        assertThat(together.get("per_page")).containsEntry(List.of("/home"), List.of("/home", 2L, 310L));
    }

    @Test
    void aViewKeepsItsStoresAndInternalTopicsNamesWhenItJoinsOthers() {
        CompiledView perPage = view(PER_PAGE, 7);
        CompiledView owned = view(OWNED, 10);
        Topology shared = TopologyFactory.buildShared(List.of(new PrefixedPlan("job-7-", perPage.plan(), noErrors()),
            new PrefixedPlan("job-10-", owned.plan(), noErrors())));

        // In the application "kmv", a view's internal topics are those of its own application, kmv-job-<id>.
        Set<String> sharedTopics = topicsWritten(shared, "kmv");
        Map<CompiledView, Long> jobs = Map.of(perPage, 7L, owned, 10L);
        for (CompiledView view : List.of(perPage, owned)) {
            Set<String> alone = topicsWritten(TopologyFactory.build(view.plan(), noErrors()), "kmv-job-" + jobs.get(view));
            assertThat(alone).anyMatch(topic -> topic.endsWith("-changelog"));
            assertThat(sharedTopics).containsAll(alone);
        }
    }

    @Test
    void aViewAddedLastLeavesThePartsOfTheOthersNumberedAsTheyWere() {
        List<PrefixedPlan> first = List.of(new PrefixedPlan("job-7-", view(PER_PAGE, 7).plan(), noErrors()),
            new PrefixedPlan("job-10-", view(OWNED, 10).plan(), noErrors()));
        List<PrefixedPlan> more = new java.util.ArrayList<>(first);
        more.add(new PrefixedPlan("job-11-", view(
            "CREATE MATERIALIZED VIEW owners AS SELECT owner, count(*) AS n FROM pages GROUP BY owner", 11).plan(), noErrors()));

        Map<Integer, Set<String>> before = nodesBySubtopology(TopologyFactory.buildShared(first));
        Map<Integer, Set<String>> after = nodesBySubtopology(TopologyFactory.buildShared(more));

        assertThat(after).hasSizeGreaterThan(before.size());
        before.forEach((id, nodes) -> {
            if (nodes.stream().anyMatch(node -> node.contains("pages"))) {
                // The part that reads the table both read gains the new view's nodes, under its id as before.
                assertThat(after.get(id)).containsAll(nodes);
            } else {
                assertThat(after.get(id)).isEqualTo(nodes);
            }
        });
    }

    @Test
    void aViewJoiningAheadDropsWhatTheTopologyReadsBelowItsOffsetsAndOnlyFromAStreamOfInserts() {
        CompiledView perPage = view(PER_PAGE, 7);
        CompiledView total = view(TOTAL, 9);
        // The view already holds the clicks below offset 3 of the topic's partition: the others read them all.
        Topology shared = TopologyFactory.buildShared(List.of(new PrefixedPlan("job-7-", perPage.plan(), noErrors()),
            new PrefixedPlan("job-9-", total.plan(), noErrors(), Map.of("clicks-topic:0", 3L))));

        Map<String, Map<List<Object>, List<Object>>> together = run(shared, List.of(perPage, total));
        assertThat(together.get("per_page")).isEqualTo(run(TopologyFactory.build(perPage.plan(), noErrors()),
            List.of(perPage)).get("per_page"));
        // Offsets 3 and 4 of CLICK_RECORDS are clicks; 0 and 1 are dropped; 2 is not a click at all.
        assertThat(together.get("total")).containsExactly(Map.entry(List.of(), List.of(2L)));

        // A table's changes carry the value each replaces: its reading cannot begin elsewhere.
        CompiledView owners = view("CREATE MATERIALIZED VIEW owners AS SELECT owner, count(*) AS n FROM pages "
            + "GROUP BY owner", 11);
        assertThatThrownBy(() -> TopologyFactory.buildShared(List.of(new PrefixedPlan("job-10-", view(OWNED, 10).plan(),
            noErrors()), new PrefixedPlan("job-11-", owners.plan(), noErrors(), Map.of("kmv-table-pages:0", 1L)))))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("reads kmv-table-pages as a table");
    }

    @Test
    void aTopicReadAnotherWaySinksAndIndexesCannotJoin() {
        CompiledView perPage = view(PER_PAGE, 7);
        CompiledView pages = view("CREATE MATERIALIZED VIEW pages_seen AS SELECT page, count(*) AS n FROM click_pages "
            + "GROUP BY page", 12);
        assertThatThrownBy(() -> TopologyFactory.buildShared(List.of(new PrefixedPlan("job-7-", perPage.plan(), noErrors()),
            new PrefixedPlan("job-12-", pages.plan(), noErrors()))))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("topic clicks-topic is already read another way");

        CompiledView index = view(SLOW, 13);
        assertThatThrownBy(() -> TopologyFactory.buildShared(List.of(new PrefixedPlan("job-13-",
            index.plan().indexedBy(new IndexOutput("slow", List.of(0), 4)), noErrors()))))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("only views share a topology");
    }

    private static CompiledView view(String sql, long jobId) {
        return new SqlCompiler(() -> List.of(CLICKS, CLICK_PAGES, PAGES), 4)
            .compileView((SqlCreateMaterializedView) SqlStatementParser.parse(sql), sql, jobId);
    }

    private static io.kafkamv.compiler.runtime.EvaluationErrors noErrors() {
        return (stepId, what, error) -> {
            throw new AssertionError(stepId + ": " + what, error);
        };
    }

    /** The same records, in the same order, into whichever of the two topics the topology reads. */
    private static void pipeAll(TopologyTestDriver driver, Topology topology) {
        Set<String> read = topology.describe().subtopologies().stream()
            .flatMap(subtopology -> subtopology.nodes().stream())
            .filter(TopologyDescription.Source.class::isInstance)
            .flatMap(node -> ((TopologyDescription.Source) node).topicSet().stream())
            .collect(Collectors.toSet());
        Consumer<Object[]> page = row -> {
            if (read.contains(PAGES.topic())) {
                driver.createInputTopic(PAGES.topic(), new RowSerde(PAGES.key()).serializer(),
                    new RowSerde(PAGES.schema().columns()).serializer()).pipeInput(new Object[] {row[0]}, row);
            }
        };
        page.accept(new Object[] {"/home", "ann"});
        page.accept(new Object[] {"/about", "bob"});
        if (read.contains("clicks-topic")) {
            var clicks = driver.createInputTopic("clicks-topic", new StringSerializer(), new StringSerializer());
            CLICK_RECORDS.forEach(record -> clicks.pipeInput(record[0], record[1]));
        }
        page.accept(new Object[] {"/about", "ann"});
        driver.advanceWallClockTime(PartialAggregator.MAX_HOLD);
    }

    /** Each view's last row by key, as its output topic carries them. */
    private static Map<String, Map<List<Object>, List<Object>>> run(Topology topology, List<CompiledView> views) {
        Properties properties = new Properties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "shared-topology-test");
        properties.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        Map<String, Map<List<Object>, List<Object>>> rows = new HashMap<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, properties)) {
            pipeAll(driver, topology);
            for (CompiledView view : views) {
                Map<List<Object>, List<Object>> latest = new HashMap<>();
                driver.createOutputTopic(view.plan().outputTopic(), new RowSerde(view.relation().key()).deserializer(),
                        new RowSerde(view.relation().schema().columns()).deserializer())
                    .readKeyValuesToList().forEach(record -> {
                        if (record.value == null) {
                            latest.remove(Arrays.asList(record.key));
                        } else {
                            latest.put(Arrays.asList(record.key), Arrays.asList(record.value));
                        }
                    });
                rows.put(view.plan().view(), latest);
            }
        }
        return rows;
    }

    /** Every topic the topology wrote to while it ran the records: outputs, changelogs and repartition topics. */
    private static Set<String> topicsWritten(Topology topology, String applicationId) {
        Properties properties = new Properties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, properties)) {
            pipeAll(driver, topology);
            return new TreeSet<>(driver.producedTopicNames());
        }
    }

    private static List<TopologyDescription.Source> sourceNodesOf(Topology topology, String topic) {
        return topology.describe().subtopologies().stream()
            .flatMap(subtopology -> subtopology.nodes().stream())
            .filter(node -> node instanceof TopologyDescription.Source source && source.topicSet().contains(topic))
            .map(TopologyDescription.Source.class::cast)
            .toList();
    }

    private static Map<Integer, Set<String>> nodesBySubtopology(Topology topology) {
        return topology.describe().subtopologies().stream().collect(Collectors.toMap(TopologyDescription.Subtopology::id,
            subtopology -> subtopology.nodes().stream().map(TopologyDescription.Node::name)
                .collect(Collectors.toCollection(TreeSet::new))));
    }
}
