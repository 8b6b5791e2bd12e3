package io.kafkamv.jobstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

/** The job store's rules, over a log in memory ({@link InMemoryJobStoreLogTestDouble}); JobStoreIT runs it on Kafka. */
class JobStoreTest {

    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

    private final InMemoryJobStoreLogTestDouble log = new InMemoryJobStoreLogTestDouble();

    @Test
    void theFirstCreateOfANameWinsAndTheSecondIsToldSo() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));

        assertThat(store.create(entry("v", 1001, T0))).isTrue();
        assertThat(store.create(entry("v", 1002, T0.plusSeconds(1)))).isFalse();

        assertThat(store.object("v")).map(CatalogEntry::jobId).contains(1001L);
    }

    @Test
    void theFirstCreateStillWinsWhenTheLogIsReadAgainFromTheStart() throws Exception {
        JobStore first = JobStore.over(log, Duration.ofSeconds(1));
        first.create(entry("v", 1001, T0));
        first.create(entry("v", 1002, T0.plusSeconds(1)));

        JobStore restarted = JobStore.over(log, Duration.ofSeconds(1));

        assertThat(restarted.object("v")).map(CatalogEntry::jobId).contains(1001L);
    }

    @Test
    void theFirstCreateStillWinsAfterCompactionLeavesOnlyTheLastRecordOfTheName() throws Exception {
        JobStore first = JobStore.over(log, Duration.ofSeconds(1));
        assertThat(first.create(entry("v", 1001, T0))).isTrue();
        assertThat(first.create(entry("v", 1002, T0.plusSeconds(1)))).isFalse();

        JobStore restarted = JobStore.over(log.compacted(), Duration.ofSeconds(1));

        assertThat(restarted.object("v")).map(CatalogEntry::jobId).contains(1001L);
    }

    @Test
    void restatingAnObjectNeverHidesItAgainNorBringsItBackOnceDropped() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        CatalogEntry creating = entry("v", 1001, T0);
        store.create(creating);
        store.put(creating.withStatus(ObjectStatus.CREATED));

        store.put(creating);
        assertThat(store.object("v")).map(CatalogEntry::visible).contains(true);

        store.removeObject("v");
        store.put(creating.withStatus(ObjectStatus.CREATED));
        assertThat(store.object("v")).isEmpty();
        assertThat(JobStore.over(log, Duration.ofSeconds(1)).object("v")).isEmpty();
    }

    @Test
    void aCancelWinsOverWhateverIsWrittenToTheJobAfterIt() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.put(job(1001, JobStatus.CREATING));

        store.cancel(1001, "cancelled by user");
        store.put(job(1001, JobStatus.CREATED));

        assertThat(store.job(1001)).map(Job::status).contains(JobStatus.CANCELLING);
        assertThat(store.cancelled(1001)).contains("cancelled by user");
    }

    /** The log takes the first record of the write and fails the rest, as a producer that fails its second send. */
    @Test
    void aCancelThatFreesTheNameIsWrittenFirstSoThatAFailureLeavesNoJobOutOfReach() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.put(job(1001, JobStatus.CREATING));
        store.create(entry("v", 1001, T0));
        JobStore failing = JobStore.over(new JobStoreLog() {
            @Override
            public String name() {
                return log.name();
            }

            @Override
            public void follow(Reader reader, Duration timeout)
                throws InterruptedException, java.util.concurrent.TimeoutException {
                log.follow(reader, timeout);
            }

            @Override
            public long append(List<Entry> entries) {
                log.append(entries.subList(0, 1));
                throw new JobStoreException("the second record was not written", null);
            }

            @Override
            public java.util.Optional<String> readProblem() {
                return log.readProblem();
            }

            @Override
            public org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]> recordOf(Entry entry) {
                return log.recordOf(entry);
            }

            @Override
            public void catchUpTransactions() {
                log.catchUpTransactions();
            }

            @Override
            public java.util.Optional<byte[]> read(int partition, long offset) {
                return log.read(partition, offset);
            }

            @Override
            public void deleteTransactional(List<String> keys) {
                log.deleteTransactional(keys);
            }

            @Override
            public void close() {
                // The log under it belongs to the test.
            }
        }, Duration.ofSeconds(1));

        assertThatThrownBy(() -> failing.cancelAndFree(1001, "v", "dropped")).isInstanceOf(JobStoreException.class);

        JobStore reread = JobStore.over(log, Duration.ofSeconds(1));
        assertThat(reread.job(1001)).map(Job::status).as("cancelled, so its cleanup frees the name")
            .contains(JobStatus.CANCELLING);
    }

    @Test
    void jobIdsAreUniqueAndStartAtAThousand() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));

        long first = store.allocateJobId();
        long second = store.allocateJobId();

        assertThat(first).isGreaterThanOrEqualTo(1000);
        assertThat(second).isGreaterThan(first);
    }

    @Test
    void forgettingAStatementRemovesItsRecordFirstThenItsPages() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        StatementJob statement = StatementJob.accepted(store.allocateJobId(), "SELECT 1", Map.of(), "instance-1");
        store.accept(statement);
        log.appendCommitted(List.of(store.resultPageRecord(statement.id(), 0, 0,
            JsonNodeFactory.instance.arrayNode().add(JsonNodeFactory.instance.arrayNode().add(1)))));
        assertThat(store.resultPage(statement.id(), 0, 0)).isPresent();

        store.removeStatement(statement.id());

        assertThat(store.statement(statement.id())).isEmpty();
        assertThat(store.resultPage(statement.id(), 0, 0)).isEmpty();
        List<String> tombstones = log.entries().stream().filter(entry -> entry.value() == null)
            .map(JobStoreLog.Entry::key).toList();
        assertThat(tombstones.get(0)).isEqualTo("statement/" + statement.id());
    }

    @Test
    void aRecordThisVersionCannotReadIsSkippedAndTheOthersApplied() throws Exception {
        log.append(List.of(new JobStoreLog.Entry("job/1001", "{not json".getBytes(StandardCharsets.UTF_8)),
            new JobStoreLog.Entry("widget/7", new byte[0])));
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));

        store.put(job(1002, JobStatus.CREATING));

        assertThat(store.jobs()).extracting(Job::id).containsExactly(1002L);
    }

    @Test
    void aJobWhoseLatestRecordThisVersionCannotReadIsSaidToBeSoUntilOneItCanRead() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.put(job(1001, JobStatus.CREATING));
        // A newer kafka-mv's record of the job, say with a status this version does not know.
        log.append(List.of(new JobStoreLog.Entry("job/1001", "{\"id\": 1001, \"status\": \"PAUSED\"}"
            .getBytes(StandardCharsets.UTF_8))));

        assertThat(store.unreadable(1001)).as("the older copy must not be acted on as if current").isPresent();

        store.put(job(1001, JobStatus.CREATED));
        assertThat(store.unreadable(1001)).isEmpty();
    }

    @Test
    void listenersHearOfEachBatchOfChanges() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        AtomicInteger heard = new AtomicInteger();
        store.addListener(heard::incrementAndGet);

        store.put(job(1001, JobStatus.CREATING));

        assertThat(heard).hasValue(1);
    }

    @Test
    void aRewriteFromAnOlderCopyNeverTakesAJobBackOnAnyInstanceNorAfterARestart() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        Job creating = job(1001, JobStatus.CREATING);
        store.put(creating.withProgress(Map.of("t:0", 60L), 0.6));
        store.put(store.job(1001).orElseThrow().withStatus(JobStatus.CREATED, null));

        // Another instance's write from the copy it had before both: as it reaches this instance's log.
        appendAsAnotherInstance(creating.withProgress(Map.of("t:0", 50L), 0.5));
        // And this instance's own writer with the same old copy.
        store.put(creating.withProgress(Map.of("t:0", 55L), 0.55));

        for (JobStore reader : List.of(store, JobStore.over(log, Duration.ofSeconds(1)))) {
            Job job = reader.job(1001).orElseThrow();
            assertThat(job.status()).isEqualTo(JobStatus.CREATED);
            assertThat(job.progress()).isEqualTo(0.6);
            assertThat(job.backfillOffsets()).containsEntry("t:0", 60L);
        }
    }

    @Test
    void aWaitingJobIsReleasedOnceWithTheOffsetsOfTheFirstReleaseAndNeverWaitsAgain() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.put(new Job(1001, "base", "CREATE MATERIALIZED VIEW base AS SELECT 1", null, true, JobStatus.CREATING,
            null, Map.of(), Map.of(), Map.of(), 0, "instance-1", -1, T0, T0));
        Job waiting = job(1002, JobStatus.CREATING).waitingFor(List.of(1001L));
        store.put(waiting);
        assertThat(store.job(1002)).map(Job::status).contains(JobStatus.WAITING);
        assertThat(store.awaitedBy(waiting)).containsExactly("base");
        assertThat(store.queued()).isEmpty();

        store.put(store.job(1001).orElseThrow().withStatus(JobStatus.CREATED, null));
        assertThat(store.awaitedBy(waiting)).as("nothing left to wait for once created").isEmpty();
        // Two instances release it, each with the offsets it read; the first in the log wins everywhere.
        store.put(waiting.released(Map.of("m:0", 0L), Map.of("m:0", 100L)));
        appendAsAnotherInstance(waiting.released(Map.of("m:0", 0L), Map.of("m:0", 120L)));
        store.put(store.job(1002).orElseThrow().withProgress(Map.of("m:0", 50L), 0.5));
        // A copy from before the release: the job does not go back to waiting, nor lose its offsets or progress.
        appendAsAnotherInstance(waiting.withProgress(Map.of(), 0.0));

        for (JobStore reader : List.of(store, JobStore.over(log, Duration.ofSeconds(1)))) {
            Job job = reader.job(1002).orElseThrow();
            assertThat(job.status()).isEqualTo(JobStatus.CREATING);
            assertThat(job.targetOffsets()).containsExactly(Map.entry("m:0", 100L));
            assertThat(job.waitsFor()).isEmpty();
            assertThat(job.progress()).isEqualTo(0.5);
        }
    }

    @Test
    void aJobReleasedByWhatItWaitedForQueuesBehindTheJobsThatRunThoughItIsOlder() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.putSetting(JobStore.MAX_CONCURRENT_CREATING_JOBS, "1");
        store.put(job(1002, JobStatus.CREATING).waitingFor(List.of(1001L)));
        store.put(job(1003, JobStatus.CREATING).withProgress(Map.of("t:0", 10L), 0.1));
        assertThat(store.queued()).isEmpty();

        store.put(store.job(1002).orElseThrow().released(Map.of("m:0", 0L), Map.of("m:0", 10L)));

        assertThat(store.queued()).containsExactly(1002L);
    }

    @Test
    void aFailedJobStaysFailedWhateverAnOlderCopySays() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        Job creating = job(1001, JobStatus.CREATING);
        store.put(creating);
        store.put(creating.withStatus(JobStatus.FAILED, "no topology"));

        appendAsAnotherInstance(creating.withProgress(Map.of("t:0", 10L), 0.1));

        assertThat(store.job(1001)).map(Job::status).contains(JobStatus.FAILED);
        assertThat(store.job(1001)).map(Job::failure).contains("no topology");
    }

    @Test
    void theRateLimitAlterSetSurvivesARewriteOfTheJobFromAnOlderCopy() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.put(job(1001, JobStatus.CREATING));
        Job copyOfTheRunner = store.job(1001).orElseThrow();

        store.setRateLimit(1001, 0);
        store.put(copyOfTheRunner.withProgress(Map.of("t:0", 10L), 0.1));

        assertThat(store.job(1001)).map(Job::rateLimit).contains(0L);
        assertThat(JobStore.over(log, Duration.ofSeconds(1)).job(1001)).map(Job::rateLimit).contains(0L);
    }

    @Test
    void aPausedJobIsHeldWhateverItsRecordsSayAndResumesAtTheRateItHad() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.put(job(1001, JobStatus.CREATING));
        store.setRateLimit(1001, 500);

        store.pause(1001);
        Job copyOfTheRunner = store.job(1001).orElseThrow();
        assertThat(copyOfTheRunner.rateLimit()).isZero();
        // The runner writes its progress from the paused copy; the record keeps the rate the job was created with.
        store.put(copyOfTheRunner.withProgress(Map.of("t:0", 10L), 0.1));
        JobStore restarted = JobStore.over(log, Duration.ofSeconds(1));
        assertThat(restarted.paused(1001)).isTrue();
        assertThat(restarted.job(1001)).map(Job::rateLimit).contains(0L);

        // The log in memory serves its latest reader only: the restarted instance resumes.
        restarted.resume(1001);
        for (JobStore reader : List.of(restarted, JobStore.over(log, Duration.ofSeconds(1)))) {
            assertThat(reader.paused(1001)).isFalse();
            assertThat(reader.job(1001)).map(Job::rateLimit).as("ALTER's rate, not the paused copy's 0").contains(500L);
        }
    }

    @Test
    void aRecordKeepsTheRateItsJobWasCreatedWithAndRemovingTheJobForgetsItsPause() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.put(job(1001, JobStatus.CREATING));
        long created = store.job(1001).orElseThrow().rateLimit();
        store.put(store.job(1001).orElseThrow().withRateLimit(created + 7).withProgress(Map.of("t:0", 10L), 0.1));
        assertThat(JobStore.over(log, Duration.ofSeconds(1)).job(1001)).map(Job::rateLimit).contains(created);

        store.pause(1001);
        store.removeJob(1001);
        assertThat(JobStore.over(log, Duration.ofSeconds(1)).paused(1001)).isFalse();
    }

    @Test
    void jobsBeyondTheClustersLimitAreQueuedInCreationOrderAndACancelFreesASlot() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        for (long id : List.of(1003L, 1001L, 1002L)) {
            store.put(job(id, JobStatus.CREATING));
        }
        store.put(job(1000, JobStatus.CREATED));
        assertThat(store.queued()).as("fewer than the default limit").isEmpty();

        store.putSetting(JobStore.MAX_CONCURRENT_CREATING_JOBS, "1");
        assertThat(store.queued()).containsExactly(1002L, 1003L);
        store.pause(1001);
        assertThat(store.queued()).as("a paused job keeps its place").containsExactly(1002L, 1003L);
        store.cancel(1001, "by user");
        assertThat(store.queued()).containsExactly(1003L);
        assertThat(JobStore.over(log, Duration.ofSeconds(1)).queued()).as("after a restart").containsExactly(1003L);
    }

    @Test
    void beyondEightJobsAreQueuedUnlessTheLimitIsSetToNone() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        for (long id = 1001; id <= 1010; id++) {
            store.put(job(id, JobStatus.CREATING));
        }
        assertThat(store.maxConcurrentCreatingJobs()).isEqualTo(JobStore.DEFAULT_MAX_CONCURRENT_CREATING_JOBS);
        assertThat(store.queued()).containsExactly(1009L, 1010L);

        store.putSetting(JobStore.MAX_CONCURRENT_CREATING_JOBS, "0");
        assertThat(store.queued()).as("0: no limit").isEmpty();
        store.putSetting(JobStore.MAX_CONCURRENT_CREATING_JOBS, null);
        assertThat(store.queued()).as("reset to the default").containsExactly(1009L, 1010L);
    }

    @Test
    void aJobShowsAHundredPercentOnlyOnceItsObjectIsCreated() {
        Job sourcesRead = job(1001, JobStatus.CREATING).withProgress(Map.of("t:0", 10L), 1.0);
        assertThat(sourcesRead.shownProgress()).as("its exchanges may still drain").isLessThan(1.0);
        assertThat(sourcesRead.withStatus(JobStatus.CREATED, null).shownProgress()).isEqualTo(1.0);
        assertThat(job(1001, JobStatus.CREATING).withProgress(Map.of("t:0", 5L), 0.5).shownProgress()).isEqualTo(0.5);
    }

    @Test
    void aRemovedJobIsNotBroughtBackByALateWrite() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.put(job(1001, JobStatus.CREATING));
        Job copy = store.job(1001).orElseThrow();

        store.removeJob(1001);
        store.put(copy.withProgress(Map.of("t:0", 10L), 0.1));
        appendAsAnotherInstance(copy.withStatus(JobStatus.FAILED, "late"));

        assertThat(store.job(1001)).isEmpty();
        assertThat(store.jobs()).isEmpty();
    }

    @Test
    void aJobThatStartedOverNeitherGoesBackAGenerationNorBecomesUnreadableAgainFromAnOlderCopy() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        store.put(job(1001, JobStatus.CREATED));
        Job copyOfAnotherInstance = store.job(1001).orElseThrow();

        store.put(copyOfAnotherInstance.withGeneration(1, Map.of("t:0", 100L)));
        assertThat(store.job(1001)).hasValueSatisfying(job -> {
            assertThat(job.generation()).isEqualTo(1);
            assertThat(job.rebuilding()).isTrue();
        });
        appendAsAnotherInstance(copyOfAnotherInstance.withProgress(Map.of(), 1.0));
        assertThat(store.job(1001)).map(Job::generation).contains(1);

        Job rebuilding = store.job(1001).orElseThrow();
        store.put(rebuilding.withRebuilt());
        appendAsAnotherInstance(rebuilding);
        store.put(rebuilding.withProgress(Map.of(), 1.0));

        for (JobStore reader : List.of(store, JobStore.over(log, Duration.ofSeconds(1)))) {
            Job job = reader.job(1001).orElseThrow();
            assertThat(job.generation()).isEqualTo(1);
            assertThat(job.rebuilding()).as("a done rebuild stays done").isFalse();
        }
    }

    @Test
    void aCreatingJobStartsOverWithoutRebuildTargetsSinceItIsNotReadAnyway() {
        assertThat(job(1001, JobStatus.CREATING).withGeneration(1, Map.of("t:0", 5L)).rebuilding()).isFalse();
        assertThat(job(1001, JobStatus.CREATED).withGeneration(1, Map.of("t:0", 5L)).rebuildTargets())
            .containsEntry("t:0", 5L);
    }

    private void appendAsAnotherInstance(Job job) throws Exception {
        log.append(List.of(new JobStoreLog.Entry(JobStoreKeys.job(job.id()), JobStore.mapper().writeValueAsBytes(job))));
    }

    private static CatalogEntry entry(String name, long jobId, Instant createdAt) {
        return new CatalogEntry(name, ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATING, "CREATE MATERIALIZED VIEW "
            + name + " AS SELECT 1", jobId, JsonNodeFactory.instance.objectNode(), createdAt);
    }

    private static Job job(long id, JobStatus status) {
        return new Job(id, "v", "CREATE MATERIALIZED VIEW v AS SELECT 1", null, true, status, null, Map.of(), Map.of(),
            Map.of(), 0, "instance-1", -1, T0, T0);
    }

    @Test
    void theSharedApplicationsMembersChangeByGenerationAndTheFirstWriterOfOneWins() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        assertThat(store.sharedMembers()).isEqualTo(SharedMembers.NONE);
        SharedMembers first = SharedMembers.NONE.joinedBy(List.of(7L));
        assertThat(store.putSharedMembers(first)).isTrue();

        // Another instance moved view 8 in just before this one tried to move view 9 from the same generation.
        log.append(List.of(new JobStoreLog.Entry("shared-members",
            "{\"generation\":2,\"jobs\":[7,8]}".getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        assertThat(store.putSharedMembers(first.joinedBy(List.of(9L)))).isFalse();
        assertThat(store.sharedMembers()).isEqualTo(new SharedMembers(2, List.of(7L, 8L)));

        for (JobStore reader : List.of(JobStore.over(log, Duration.ofSeconds(1)),
            JobStore.over(log.compacted(), Duration.ofSeconds(1)))) {
            assertThat(reader.sharedMembers().jobs()).as("after a restart, and after compaction").containsExactly(7L, 8L);
        }
        store = JobStore.over(log, Duration.ofSeconds(1));
        SharedMembers third = store.sharedMembers().joinedBy(List.of(9L, 8L)).leftBy(List.of(7L));
        assertThat(third).isEqualTo(new SharedMembers(4, List.of(8L, 9L)));
        assertThat(store.putSharedMembers(new SharedMembers(3, third.jobs()))).isTrue();
        assertThat(store.sharedMembers().contains(7)).isFalse();
    }

    @Test
    void aMemberThatJoinedAheadKeepsWhereItsReadingBeginsUntilItLeaves() throws Exception {
        JobStore store = JobStore.over(log, Duration.ofSeconds(1));
        SharedMembers joined = SharedMembers.NONE.joinedBy(List.of(7L))
            .joinedBy(List.of(8L), Map.of(8L, Map.of("events:0", 120L, "events:3", 95L)));
        assertThat(store.putSharedMembers(joined)).isTrue();

        SharedMembers read = JobStore.over(log.compacted(), Duration.ofSeconds(1)).sharedMembers();
        assertThat(read.readFrom(8)).containsExactlyInAnyOrderEntriesOf(Map.of("events:0", 120L, "events:3", 95L));
        assertThat(read.readFrom(7)).isEmpty();
        assertThat(read.joinedBy(List.of(9L)).readFrom(8)).as("a later join keeps it").hasSize(2);
        assertThat(read.leftBy(List.of(8L)).readFrom()).as("leaving drops it").isEmpty();
    }
}
