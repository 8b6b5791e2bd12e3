package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import io.kafkamv.compiler.CompiledView;
import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.topology.TopologyFactory;
import io.kafkamv.connectors.row.RowSerde;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.embedded.junit.EmbeddedKafkaExtension;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A created view moves from its own Kafka Streams application into the shared one, on a real broker: nothing is
 * copied, and nothing is counted twice or lost (docs/concepts.md, "Many views on one instance").
 */
class ViewHandoffIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.singleNode();

    private static final String TOPIC = "handoff-clicks";
    private static final Relation CLICKS = new Relation("clicks",
        new RowSchema(List.of(Column.of("page", SqlType.VARCHAR), Column.of("ms", SqlType.INTEGER)), List.of()),
        Relation.RECORD_POSITION, TOPIC, "json", "handoff-clicks-dlq");
    private static final String[] PAGES = {"/a", "/b", "/c", "/d", "/e"};

    private static final io.kafkamv.compiler.runtime.EvaluationErrors NO_ERRORS = (stepId, what, error) -> {
        throw new AssertionError(stepId + ": " + what, error);
    };

    @TempDir
    Path stateDir;

    @Test
    void viewsMovedIntoTheSharedApplicationGoOnExactlyWhereTheyStoodAlone() throws Exception {
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 4, (short) 1), new NewTopic("handoff-clicks-dlq", 1, (short) 1)))
                .all().get();
            CompiledView perPage = view("CREATE MATERIALIZED VIEW per_page AS SELECT page, count(*) AS n, sum(ms) AS total "
                + "FROM clicks GROUP BY page", 7);
            CompiledView slow = view("CREATE MATERIALIZED VIEW slow AS SELECT page, ms FROM clicks WHERE ms >= 500", 8);
            admin.createTopics(List.of(new NewTopic(perPage.plan().outputTopic(), 4, (short) 1),
                new NewTopic(slow.plan().outputTopic(), 4, (short) 1))).all().get();
            write(0, 2_000);

            // Each view created alone, as a backfill is, then stopped where it stood.
            runAloneUntilCaughtUp(admin, perPage, "kmv-job-7");
            runAloneUntilCaughtUp(admin, slow, "kmv-job-8");

            ViewHandoff.handOver(admin, "kmv-job-7", "kmv", List.of(TOPIC), List.of(), Duration.ofSeconds(30));
            SharedRuntime.Member perPageMember = new SharedRuntime.Member(job(7, perPage), perPage.plan());
            try (SharedRuntime shared = SharedRuntime.start(List.of(perPageMember), properties("kmv"), admin)) {
                write(2_000, 3_000);
                awaitRows(perPage, expectedPerPage(3_000));
                // Its rows are read where they are kept, under its prefix in the shared application.
                Object[] a = {"/a"};
                await().atMost(Duration.ofSeconds(30)).until(() -> shared.member(7).flatMap(view -> rowHere(view, a)).isPresent());
                assertThat(shared.member(7).flatMap(view -> rowHere(view, a)).orElseThrow()).containsExactly("/a", 600L, 898_500L);
                assertThat(shared.member(8)).as("not a member").isEmpty();
            }
            // The second view's own application stopped behind the shared one: joining now would lose 1,000 clicks.
            assertThatThrownBy(() -> ViewHandoff.handOver(admin, "kmv-job-8", "kmv", List.of(TOPIC), List.of(TOPIC), Duration.ofSeconds(30)))
                .isInstanceOf(ViewHandoff.PositionsApart.class)
                .hasMessageContaining("alone, ");
            // It catches up alone, then joins the first.
            runAloneUntilCaughtUp(admin, slow, "kmv-job-8");
            ViewHandoff.handOver(admin, "kmv-job-8", "kmv", List.of(TOPIC), List.of(TOPIC), Duration.ofSeconds(30));
            try (SharedRuntime shared = SharedRuntime.start(List.of(perPageMember,
                new SharedRuntime.Member(job(8, slow), slow.plan())), properties("kmv"), admin)) {
                await().atMost(Duration.ofSeconds(60)).until(shared::isRunning);
                write(3_000, 4_000);
                awaitRows(perPage, expectedPerPage(4_000));
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(rows(slow)).hasSize(expectedSlow(4_000)));
            }
        }
    }

    @Test
    void aPositionNoMemberReadsIsReplacedAndARunningGroupIsNotHandedOver() throws Exception {
        String topic = "handoff-orders";
        TopicPartition partition = new TopicPartition(topic, 0);
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1), new NewTopic("handoff-refunds", 1, (short) 1)))
                .all().get();
            admin.alterConsumerGroupOffsets("shared-a", Map.of(partition, new OffsetAndMetadata(5))).all().get();
            admin.alterConsumerGroupOffsets("own-a", Map.of(partition, new OffsetAndMetadata(9))).all().get();

            // A member reads the topic: the positions must be the same.
            assertThatThrownBy(() -> ViewHandoff.handOver(admin, "own-a", "shared-a", List.of(topic), List.of(topic),
                Duration.ofSeconds(30))).isInstanceOf(ViewHandoff.PositionsApart.class).hasMessageContaining("at 9 alone, 5 shared");
            // None does (its reader was dropped, or a move did not finish): the view's own position replaces it.
            ViewHandoff.handOver(admin, "own-a", "shared-a", List.of(topic), List.of(), Duration.ofSeconds(30));
            assertThat(offset(admin, "shared-a", partition)).isEqualTo(9);

            // And back: the own group takes the shared group's positions on the view's topics only.
            admin.alterConsumerGroupOffsets("shared-a", Map.of(partition, new OffsetAndMetadata(12),
                new TopicPartition("handoff-refunds", 0), new OffsetAndMetadata(3))).all().get();
            ViewHandoff.handBack(admin, "shared-a", "own-b", topic::equals, Duration.ofSeconds(30));
            assertThat(offset(admin, "own-b", partition)).isEqualTo(12);
            assertThat(admin.listConsumerGroupOffsets("own-b").partitionsToOffsetAndMetadata().get())
                .doesNotContainKey(new TopicPartition("handoff-refunds", 0));
            // A view that joined ahead holds what lies before its bound: where the shared group is behind it, it goes on
            // from the bound; where the shared group has passed it, from there.
            ViewHandoff.handBack(admin, "shared-a", "own-d", topic::equals, Map.of(topic + ":0", 20L), Duration.ofSeconds(30));
            assertThat(offset(admin, "own-d", partition)).isEqualTo(20);
            ViewHandoff.handBack(admin, "shared-a", "own-e", topic::equals, Map.of(topic + ":0", 10L), Duration.ofSeconds(30));
            assertThat(offset(admin, "own-e", partition)).isEqualTo(12);

            // An application that did not close is still a member of its group: what it committed is not its last word.
            Properties properties = KAFKA.cluster().clientProperties();
            properties.put(ConsumerConfig.GROUP_ID_CONFIG, "own-c");
            try (KafkaConsumer<byte[], byte[]> running = new KafkaConsumer<>(properties,
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
                running.subscribe(List.of(topic));
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    running.poll(Duration.ofMillis(100));
                    return !running.assignment().isEmpty();
                });
                assertThatThrownBy(() -> ViewHandoff.handOver(admin, "own-c", "shared-c", List.of(topic), List.of(),
                    Duration.ofSeconds(30))).isInstanceOf(ViewHandoff.PositionsApart.class)
                    .hasMessageContaining("[own-c] still have members");
            }
        }
    }

    private static long offset(Admin admin, String group, TopicPartition partition) throws Exception {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(partition).offset();
    }

    private static CompiledView view(String sql, long jobId) {
        return new SqlCompiler(() -> List.of(CLICKS), 4)
            .compileView((SqlCreateMaterializedView) SqlStatementParser.parse(sql), sql, jobId);
    }

    /** Clicks {@code from} (inclusive) to {@code to}: page i % 5, i ms. */
    private static void write(int from, int to) throws Exception {
        Properties properties = KAFKA.cluster().clientProperties();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
            new StringSerializer())) {
            for (int i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(TOPIC, "k" + i,
                    "{\"page\": \"" + PAGES[i % PAGES.length] + "\", \"ms\": " + i + "}"));
            }
            producer.flush();
        }
    }

    private static Map<List<Object>, List<Object>> expectedPerPage(int clicks) {
        Map<List<Object>, List<Object>> expected = new HashMap<>();
        for (int p = 0; p < PAGES.length; p++) {
            long n = 0;
            long total = 0;
            for (int i = p; i < clicks; i += PAGES.length) {
                n++;
                total += i;
            }
            expected.put(List.of(PAGES[p]), List.of(PAGES[p], n, total));
        }
        return expected;
    }

    private static int expectedSlow(int clicks) {
        return clicks - 500;
    }

    private void runAloneUntilCaughtUp(Admin admin, CompiledView view, String applicationId) throws Exception {
        try (KafkaStreams alone = start(TopologyFactory.build(view.plan(), NO_ERRORS), applicationId)) {
            awaitCaughtUp(admin, applicationId);
            alone.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        }
    }

    private KafkaStreams start(Topology topology, String applicationId) throws Exception {
        KafkaStreams streams = new KafkaStreams(topology, properties(applicationId));
        streams.start();
        return streams;
    }

    private Properties properties(String applicationId) throws Exception {
        Properties properties = KAFKA.cluster().clientProperties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        properties.put(StreamsConfig.STATE_DIR_CONFIG, Files.createDirectories(stateDir.resolve(applicationId)).toString());
        properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        properties.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), "test-instance");
        return properties;
    }

    private static Job job(long id, CompiledView view) {
        return new Job(id, view.plan().view(), view.statement(), PlanJson.toTree(view.plan()), true, JobStatus.CREATED,
            null, Map.of(), Map.of(), Map.of(), 1, "test-instance", -1, Instant.EPOCH, Instant.EPOCH);
    }

    /**
     * Until the group has committed the end of every partition of the source, and of every other partition it has
     * committed (its repartition topics): a group that has committed some partitions only has not caught up.
     */
    private static void awaitCaughtUp(Admin admin, String group) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Map<TopicPartition, Long> committed = new HashMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().forEach((partition, offset) ->
                committed.put(partition, offset == null ? -1 : offset.offset()));
            for (int partition = 0; partition < 4; partition++) {
                committed.putIfAbsent(new TopicPartition(TOPIC, partition), -1L);
            }
            var ends = admin.listOffsets(committed.keySet().stream().collect(java.util.stream.Collectors.toMap(
                partition -> partition, partition -> org.apache.kafka.clients.admin.OffsetSpec.latest()))).all().get();
            return committed.entrySet().stream().allMatch(entry -> entry.getValue() >= ends.get(entry.getKey()).offset());
        });
    }

    /**
     * Until the view's topic has exactly {@code expected}, and keeps it for longer than an aggregation holds partial
     * aggregates back (a second): rows counted twice would show by then.
     */
    private static void awaitRows(CompiledView view, Map<List<Object>, List<Object>> expected) {
        await().atMost(Duration.ofSeconds(60)).during(Duration.ofMillis(1_500)).pollInterval(Duration.ofMillis(250))
            .untilAsserted(() -> assertThat(rows(view)).isEqualTo(expected));
    }

    /** The view's rows as its topic has them, last change by key. */
    private static Map<List<Object>, List<Object>> rows(CompiledView view) {
        Properties properties = KAFKA.cluster().clientProperties();
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<List<Object>, List<Object>> rows = new HashMap<>();
        RowSerde keys = new RowSerde(view.relation().key());
        RowSerde values = new RowSerde(view.relation().schema().columns());
        try (KafkaConsumer<Object[], Object[]> consumer = new KafkaConsumer<>(properties, keys.deserializer(),
            values.deserializer())) {
            var partitions = consumer.partitionsFor(view.plan().outputTopic()).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> {
                    if (record.value() == null) {
                        rows.remove(Arrays.asList(record.key()));
                    } else {
                        rows.put(Arrays.asList(record.key()), Arrays.asList(record.value()));
                    }
                });
            }
        }
        return rows;
    }

    /** The row of {@code key} in whichever of the view's four partitions has it here; empty while none is ready. */
    private static Optional<Object[]> rowHere(LocalView view, Object[] key) {
        for (int partition = 0; partition < 4; partition++) {
            try {
                Object[] row = view.rows().partitions().get(partition, key);
                if (row != null) {
                    return Optional.of(row);
                }
            } catch (InvalidStateStoreException notReady) {
                // Not here, or not yet: the caller waits.
            }
        }
        return Optional.empty();
    }
}
