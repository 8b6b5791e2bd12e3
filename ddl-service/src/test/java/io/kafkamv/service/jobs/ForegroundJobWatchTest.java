package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.InMemoryJobStoreLogTestDouble;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.jobstore.ObjectStatus;
import org.junit.jupiter.api.Test;

class ForegroundJobWatchTest {

    private static final Instant T0 = Instant.parse("2026-12-03T00:00:00Z");

    private final JobStore store;
    private final AtomicLong elapsed = new AtomicLong();
    private final ForegroundJobWatch watch;

    ForegroundJobWatchTest() throws InterruptedException {
        store = JobStore.over(new InMemoryJobStoreLogTestDouble(), Duration.ofSeconds(1));
        watch = new ForegroundJobWatch(store, "here", () -> System.nanoTime() + elapsed.get());
    }

    @Test
    void aForegroundJobIsCancelledOnceItsInstanceHasBeenSilentForLongEnoughAndItsNameIsFree() {
        store.heartbeat("there", false);
        create(1001, "v", false, "there");
        create(1002, "b", true, "there");

        pass(ForegroundJobWatch.SILENCE.minusSeconds(5));
        watch.cancelJobsOfGoneInstances();
        assertThat(store.job(1001)).map(Job::status).contains(JobStatus.CREATING);

        pass(Duration.ofSeconds(10));
        watch.cancelJobsOfGoneInstances();
        assertThat(store.job(1001)).map(Job::status).contains(JobStatus.CANCELLING);
        assertThat(store.cancelled(1001)).get().asString().contains("has not been heard from for 30 s");
        assertThat(store.object("v")).as("the name is free for a new CREATE").isEmpty();
        assertThat(store.job(1002)).as("a background job goes on without its client").map(Job::status)
            .contains(JobStatus.CREATING);
    }

    @Test
    void anInstanceNeverHeardFromIsLeftAloneAsAnOlderVersionWritesNoHeartbeat() {
        create(1002, "w", false, "older-version");

        pass(ForegroundJobWatch.SILENCE.plusSeconds(10));
        watch.cancelJobsOfGoneInstances();

        assertThat(store.job(1002)).map(Job::status).contains(JobStatus.CREATING);
    }

    @Test
    void anInstanceThatSaysItStoppedHasItsForegroundJobsCancelledAtOnce() {
        store.heartbeat("there", false);
        create(1001, "v", false, "there");
        create(1002, "w", false, "here");

        store.heartbeat("there", true);
        watch.cancelJobsOfGoneInstances();

        assertThat(store.cancelled(1001)).get().asString().contains("stopped");
        assertThat(store.job(1002)).as("this instance's own client still waits").map(Job::status)
            .contains(JobStatus.CREATING);
    }

    @Test
    void aStartCancelsTheForegroundJobsThisInstanceAcceptedBeforeItStopped() {
        create(1001, "v", false, "here");
        create(1002, "w", true, "here");

        ForegroundJobWatch.start(store, "here").close();

        assertThat(store.cancelled(1001)).contains("client connection lost");
        assertThat(store.job(1002)).map(Job::status).contains(JobStatus.CREATING);
        assertThat(store.lastHeard("here")).as("and it said it stopped when closed").get()
            .matches(heard -> heard.stopped());
    }

    private void pass(Duration time) {
        elapsed.addAndGet(time.toNanos());
    }

    private void create(long id, String name, boolean background, String owner) {
        store.put(new CatalogEntry(name, ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATING,
            "CREATE MATERIALIZED VIEW " + name + " AS SELECT 1", id, JsonNodeFactory.instance.objectNode(), T0));
        store.put(new Job(id, name, "CREATE MATERIALIZED VIEW " + name + " AS SELECT 1", null, background,
            JobStatus.CREATING, null, Map.of(), Map.of(), Map.of(), 0, owner, -1, T0, T0));
    }
}
