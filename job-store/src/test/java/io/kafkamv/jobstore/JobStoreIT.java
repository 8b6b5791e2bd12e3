package io.kafkamv.jobstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kafkamv.embedded.junit.EmbeddedKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

class JobStoreIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.singleNode();

    @Test
    void everyInstanceSeesEveryWriteAndARestartFindsTheLatestState(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        try (JobStore first = open(topic); JobStore second = open(topic)) {
            AtomicInteger changesSeenBySecond = new AtomicInteger();
            second.addListener(changesSeenBySecond::incrementAndGet);

            long id = first.allocateJobId();
            Job job = job(id, "m");
            first.put(new CatalogEntry("m", ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATING,
                job.statement(), id, JsonNodeFactory.instance.objectNode().put("topic", "out"), Instant.now()));
            first.put(job);
            first.put(job.withProgress(Map.of("t:0", 50L), 0.5));

            assertThat(first.job(id)).map(Job::progress).contains(0.5);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(second.job(id)).map(Job::progress).contains(0.5);
                assertThat(second.object("m")).map(entry -> entry.definition().get("topic").asText()).contains("out");
            });
            assertThat(changesSeenBySecond.get()).isPositive();
        }

        try (JobStore restarted = open(topic)) {
            assertThat(restarted.jobs()).singleElement().satisfies(job -> {
                assertThat(job.progress()).isEqualTo(0.5);
                assertThat(job.backfillOffsets()).containsEntry("t:0", 50L);
                assertThat(job.targetOffsets()).containsEntry("t:0", 100L);
            });
            assertThat(restarted.object("m")).map(CatalogEntry::visible).contains(false);
        }
    }

    @Test
    void jobIdsIncreaseAndAreNeverHandedOutTwice(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        try (JobStore first = open(topic); JobStore second = open(topic)) {
            long a = first.allocateJobId();
            long b = second.allocateJobId();
            long c = first.allocateJobId();

            assertThat(a).isGreaterThanOrEqualTo(1000);
            assertThat(b).isGreaterThan(a);
            assertThat(c).isGreaterThan(b);
        }
    }

    @Test
    void jobIdsStayUniqueAfterARestoreThatDoesNotKeepOffsets(TestInfo test) throws Exception {
        JobStoreTopic original = topic(test);
        List<Long> restoredIds = new ArrayList<>();
        try (JobStore store = open(original)) {
            for (int i = 0; i < 5; i++) {
                long id = store.allocateJobId();
                store.put(job(id, "v" + i));
                store.put(job(id, "v" + i).withProgress(Map.of("t:0", 10L * i), 0.1 * i));
                restoredIds.add(id);
            }
        }
        // As docs/operations.md says to back up: a consumer copies the compacted records to another topic (here,
        // of a new cluster), where they get offsets from 0 on.
        JobStoreTopic copy = new JobStoreTopic(original.name() + "-restored", (short) 1, 1);
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            copy.ensureExists(admin);
        }
        copyRecords(original.name(), copy.name());

        try (JobStore restored = open(copy); JobStore other = open(copy)) {
            assertThat(restored.jobs()).extracting(Job::id).containsExactlyInAnyOrderElementsOf(restoredIds);
            long a = restored.allocateJobId();
            long b = other.allocateJobId();
            assertThat(a).isGreaterThan(Collections.max(restoredIds));
            assertThat(b).isGreaterThan(a);
        }
    }

    private static void copyRecords(String from, String to) throws Exception {
        Properties consumerProperties = KAFKA.cluster().clientProperties();
        consumerProperties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        TopicPartition partition = new TopicPartition(from, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties,
                 new ByteArrayDeserializer(), new ByteArrayDeserializer());
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(KAFKA.cluster().clientProperties(),
                 new ByteArraySerializer(), new ByteArraySerializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            // The latest record of each key, in log order: what the topic holds once compacted.
            Map<String, ConsumerRecord<byte[], byte[]>> latest = new LinkedHashMap<>();
            while (consumer.position(partition) < end) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    String key = new String(record.key(), StandardCharsets.UTF_8);
                    latest.remove(key);
                    latest.put(key, record);
                }
            }
            for (ConsumerRecord<byte[], byte[]> record : latest.values()) {
                producer.send(new ProducerRecord<>(to, 0, record.key(), record.value())).get();
            }
        }
    }

    @Test
    void aReaderThatFailsIsShownAsAProblemAndReadsAgainFromWhereItStoppedSkippingNothing(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        List<String> applied = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean failOnce = new java.util.concurrent.atomic.AtomicBoolean(true);
        try (KafkaJobStoreLog log = KafkaJobStoreLog.open(KAFKA.cluster().clientProperties(), topic)) {
            log.follow(new JobStoreLog.Reader() {
                @Override
                public void apply(String key, byte[] value, int partition, long offset) {
                    if (key.equals("b") && failOnce.getAndSet(false)) {
                        throw new IllegalStateException("a reader that cannot go on, once");
                    }
                    applied.add(key);
                }

                @Override
                public void batchApplied() {
                }
            }, Duration.ofSeconds(30));
            java.util.concurrent.CompletableFuture<Long> written = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                log.append(List.of(new JobStoreLog.Entry("a", new byte[0]), new JobStoreLog.Entry("b", new byte[0]),
                    new JobStoreLog.Entry("c", new byte[0]))));

            await().atMost(Duration.ofSeconds(10)).until(() -> log.readProblem().isPresent());
            assertThat(log.readProblem()).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("a reader that cannot go on");
            assertThat(written.get(30, java.util.concurrent.TimeUnit.SECONDS)).isNotNegative();
            assertThat(applied).containsExactly("a", "b", "c");
            assertThat(log.readProblem()).isEmpty();
        }
    }

    @Test
    void ofTwoCreatesOfOneNameOnTwoInstancesTheFirstWinsEverywhere(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        try (JobStore first = open(topic); JobStore second = open(topic)) {
            long a = first.allocateJobId();
            long b = second.allocateJobId();
            CatalogEntry fromFirst = view("m", a);
            CatalogEntry fromSecond = view("m", b);

            var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            var created = java.util.List.of(pool.submit(() -> first.create(fromFirst)),
                pool.submit(() -> second.create(fromSecond)));
            boolean firstWon = created.get(0).get();
            boolean secondWon = created.get(1).get();
            pool.shutdown();

            assertThat(firstWon).as("exactly one create wins").isNotEqualTo(secondWon);
            long winner = firstWon ? a : b;
            assertThat(first.object("m")).map(CatalogEntry::jobId).contains(winner);
            assertThat(second.object("m")).map(CatalogEntry::jobId).contains(winner);
            CatalogEntry won = first.object("m").orElseThrow();
            first.put(won.withStatus(ObjectStatus.CREATED));
            org.awaitility.Awaitility.await("the winner's own updates apply").atMost(Duration.ofSeconds(30))
                .until(() -> second.object("m").map(CatalogEntry::status).orElse(null) == ObjectStatus.CREATED);
        }
        try (JobStore restarted = open(topic)) {
            assertThat(restarted.object("m")).map(CatalogEntry::status).contains(ObjectStatus.CREATED);
        }
    }

    private static CatalogEntry view(String name, long jobId) {
        return new CatalogEntry(name, ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATING,
            "CREATE MATERIALIZED VIEW " + name + " AS SELECT * FROM t", jobId, JsonNodeFactory.instance.objectNode(),
            Instant.now());
    }

    @Test
    void progressNeverGoesBackwards() {
        Job job = job(1000, "m").withProgress(Map.of("t:0", 60L), 0.6);

        assertThat(job.withProgress(Map.of("t:0", 40L), 0.4).progress()).isEqualTo(0.6);
    }

    @Test
    void tombstonesDeleteJobsAndObjects(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        try (JobStore store = open(topic)) {
            long id = store.allocateJobId();
            store.put(job(id, "gone"));
            store.put(new CatalogEntry("gone", ObjectKind.TABLE, ObjectStatus.CREATED, "CREATE TABLE gone (v INT)",
                0, JsonNodeFactory.instance.objectNode(), Instant.now()));

            store.removeJob(id);
            store.removeObject("gone");

            assertThat(store.job(id)).isEmpty();
            assertThat(store.object("gone")).isEmpty();
        }
        try (JobStore restarted = open(topic)) {
            assertThat(restarted.jobs()).isEmpty();
            assertThat(restarted.objects()).isEmpty();
        }
    }

    @Test
    void aCancelWinsOverACompletionWrittenAfterItOnEveryInstanceAndAfterARestart(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        long id;
        try (JobStore canceller = open(topic); JobStore runner = open(topic)) {
            id = canceller.allocateJobId();
            Job job = job(id, "m");
            canceller.put(job);
            canceller.cancel(id, "cancelled by user");
            // The runner had read the job before the cancel, and completes it.
            runner.put(job.withStatus(JobStatus.CREATED, null));

            for (JobStore store : java.util.List.of(canceller, runner)) {
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                    assertThat(store.job(id)).map(Job::status).contains(JobStatus.CANCELLING);
                    assertThat(store.job(id)).map(Job::failure).contains("cancelled by user");
                });
            }
        }
        try (JobStore restarted = open(topic)) {
            assertThat(restarted.job(id)).map(Job::status).contains(JobStatus.CANCELLING);
            restarted.removeJob(id);
            assertThat(restarted.job(id)).isEmpty();
        }
        try (JobStore restarted = open(topic)) {
            assertThat(restarted.job(id)).isEmpty();
        }
    }

    @Test
    void aStatementEndsOnlyWhenTheTransactionCarryingItsEndCommits(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        long id;
        try (JobStore store = open(topic)) {
            id = store.allocateJobId();
            StatementJob statement = StatementJob.accepted(id, "SELECT 1", Map.of("timezone", "UTC"), "instance-a");
            store.accept(statement);
            var rows = JsonNodeFactory.instance.arrayNode().add(JsonNodeFactory.instance.arrayNode().add(1));
            var head = JsonNodeFactory.instance.objectNode().put("tag", "SELECT 1").put("pages", 1);
            StatementJob done = statement.finished(StatementStatus.DONE, java.util.List.of(head), null, 0);
            try (var producer = transactionalProducer("statement-" + id)) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(store.resultPageRecord(id, 0, 0, rows));
                producer.send(store.finishRecord(done));
                producer.abortTransaction();
                store.catchUp();
                assertThat(store.statement(id)).map(StatementJob::status).as("aborted").contains(StatementStatus.RUNNING);
                assertThat(store.resultPage(id, 0, 0)).isEmpty();

                producer.beginTransaction();
                producer.send(store.resultPageRecord(id, 0, 0, rows));
                producer.send(store.finishRecord(done));
                producer.commitTransaction();
            }
            store.catchUp();
            assertThat(store.statement(id)).map(StatementJob::status).contains(StatementStatus.DONE);
        }
        try (JobStore restarted = open(topic)) {
            assertThat(restarted.statement(id)).hasValueSatisfying(statement -> {
                assertThat(statement.status()).isEqualTo(StatementStatus.DONE);
                assertThat(statement.session()).containsEntry("timezone", "UTC");
                assertThat(statement.results()).singleElement().satisfies(head -> assertThat(head.get("tag").asText())
                    .isEqualTo("SELECT 1"));
            });
            assertThat(restarted.resultPage(id, 0, 0)).map(Object::toString).contains("[[1]]");
            restarted.removeStatement(id);
            assertThat(restarted.statement(id)).isEmpty();
            assertThat(restarted.resultPage(id, 0, 0)).isEmpty();
        }
    }

    @Test
    void aStatementsOpenTransactionHoldsBackNoOtherWrite(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        try (JobStore store = open(topic);
             var producer = transactionalProducer("statement-open-" + test.getDisplayName().hashCode())) {
            long id = store.allocateJobId();
            StatementJob statement = StatementJob.accepted(id, "SELECT 1", Map.of(), "instance-a");
            store.accept(statement);
            producer.initTransactions();
            producer.beginTransaction();
            // What a run killed between sending its end and committing leaves open, until a later run fences it.
            producer.send(store.resultPageRecord(id, 0, 0, JsonNodeFactory.instance.arrayNode()));
            producer.send(store.finishRecord(statement.finished(StatementStatus.DONE, List.of(), null, 0)));
            producer.flush();

            long started = System.nanoTime();
            long next = store.allocateJobId();
            store.put(new StatementProgress(id, "instance-b", 7, Instant.now()));
            store.cancel(next, "test");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("writes while the transaction is open")
                .isLessThan(Duration.ofSeconds(10));
            assertThat(store.statement(id)).map(StatementJob::status).contains(StatementStatus.RUNNING);

            producer.commitTransaction();
            // A commit returns before its markers reach every partition; a later run's fencing waits for them.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                store.catchUp();
                assertThat(store.statement(id)).map(StatementJob::status).as("the end, once committed")
                    .contains(StatementStatus.DONE);
            });
        }
    }

    @Test
    void catchingUpBehindAnOpenTransactionWaitsForItNotJustForWhatIsStable(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        try (JobStore store = open(topic);
             var open = transactionalProducer("open-" + test.getDisplayName().hashCode());
             var later = transactionalProducer("later-" + test.getDisplayName().hashCode())) {
            StatementJob first = StatementJob.accepted(store.allocateJobId(), "SELECT 1", Map.of(), "instance-a");
            StatementJob second = StatementJob.accepted(store.allocateJobId(), "SELECT 2", Map.of(), "instance-a");
            store.accept(first);
            store.accept(second);
            open.initTransactions();
            open.beginTransaction();
            open.send(store.finishRecord(first.finished(StatementStatus.DONE, List.of(), null, 0)));
            open.flush();
            later.initTransactions();
            later.beginTransaction();
            later.send(store.finishRecord(second.finished(StatementStatus.DONE, List.of(), null, 0)));
            later.commitTransaction();

            java.util.concurrent.CompletableFuture<Void> abort = java.util.concurrent.CompletableFuture.runAsync(() -> {
                await().pollDelay(Duration.ofSeconds(2)).until(() -> true);
                open.abortTransaction();
            });
            // The second statement's end committed before this call: once it returns, it must be seen.
            store.catchUp();
            assertThat(store.statement(second.id())).map(StatementJob::status).contains(StatementStatus.DONE);
            abort.get();
            assertThat(store.statement(first.id())).map(StatementJob::status).contains(StatementStatus.RUNNING);
        }
    }

    @Test
    void statementEndsCommittedAtOnceFromManyProducersAreAllRead(TestInfo test) throws Exception {
        JobStoreTopic topic = topic(test);
        try (JobStore store = open(topic)) {
            java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(3);
            List<java.util.concurrent.Future<Long>> ids = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                ids.add(threads.submit(() -> {
                    long id = store.allocateJobId();
                    StatementJob statement = StatementJob.accepted(id, "SELECT 1", Map.of(), "instance-a");
                    store.accept(statement);
                    try (var producer = transactionalProducer("stress-" + id)) {
                        producer.initTransactions();
                        producer.beginTransaction();
                        producer.send(new ProducerRecord<>(topic.name() + "-table", 0, new byte[] {1}, new byte[] {1}));
                        producer.send(store.finishRecord(statement.finished(StatementStatus.DONE, List.of(), null, 1)));
                        producer.commitTransaction();
                    }
                    try (var fencing = transactionalProducer("stress-" + id)) {
                        // What a later run does before it asks whether an earlier one ended the statement.
                        fencing.initTransactions();
                        store.catchUp();
                        assertThat(store.statement(id)).map(StatementJob::status).as("statement %d after fencing", id)
                            .contains(StatementStatus.DONE);
                    }
                    return id;
                }));
            }
            List<Long> all = new ArrayList<>();
            for (var id : ids) {
                all.add(id.get());
            }
            threads.shutdown();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(all).allSatisfy(id ->
                assertThat(store.statement(id)).map(StatementJob::status).as("statement %d", id).contains(StatementStatus.DONE)));
        }
    }

    private static org.apache.kafka.clients.producer.KafkaProducer<byte[], byte[]> transactionalProducer(String id) {
        Properties properties = KAFKA.cluster().clientProperties();
        properties.put(org.apache.kafka.clients.producer.ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        return new org.apache.kafka.clients.producer.KafkaProducer<>(properties,
            new org.apache.kafka.common.serialization.ByteArraySerializer(),
            new org.apache.kafka.common.serialization.ByteArraySerializer());
    }

    private static Job job(long id, String view) {
        return new Job(id, view, "CREATE MATERIALIZED VIEW " + view + " AS SELECT * FROM t",
            JsonNodeFactory.instance.objectNode().put("version", 1), true, JobStatus.CREATING, null,
            Map.of("t:0", 0L), Map.of("t:0", 100L), Map.of(), 0.0, null, -1, Instant.now(), Instant.now());
    }

    private static JobStoreTopic topic(TestInfo test) {
        return new JobStoreTopic("jobs-" + test.getTestMethod().orElseThrow().getName(), (short) 1, 1);
    }

    private static JobStore open(JobStoreTopic topic) throws InterruptedException {
        Properties properties = KAFKA.cluster().clientProperties();
        return JobStore.open(properties, topic, Duration.ofSeconds(30));
    }
}
