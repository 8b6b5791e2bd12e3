package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import org.junit.jupiter.api.Test;

class JobRatesTest {

    private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

    @Test
    void theRateIsTheRecordsDoneOverTheTimeBetweenRecordedProgressAndTheEtaFollowsFromIt() {
        JobRates rates = new JobRates(Clock.fixed(T0.plusSeconds(4), ZoneOffset.UTC));
        rates.observe(List.of(job(T0, 0)));
        rates.observe(List.of(job(T0.plusSeconds(2), 2_000)));
        rates.observe(List.of(job(T0.plusSeconds(4), 4_000)));

        JobRates.Rate rate = rates.of(job(T0.plusSeconds(4), 4_000)).orElseThrow();

        assertThat(rate.recordsPerSecond()).isCloseTo(1_000, within(0.001));
        assertThat(rate.eta()).contains(Duration.ofSeconds(6));
    }

    @Test
    void oneRecordOfProgressGivesNoRateYet() {
        JobRates rates = new JobRates(Clock.fixed(T0, ZoneOffset.UTC));
        rates.observe(List.of(job(T0, 500)));

        assertThat(rates.of(job(T0, 500))).isEmpty();
    }

    @Test
    void aBackfillThatStopsRecordingProgressSlowsDownToZero() {
        rateAfterSilence(Duration.ofSeconds(2), 1_000);
        double stalling = rateAfterSilence(Duration.ofSeconds(6), -1);
        assertThat(stalling).isBetween(1.0, 999.0);
        assertThat(rateAfterSilence(Duration.ofSeconds(30), 0)).isZero();
    }

    @Test
    void finishedJobsAreForgotten() {
        JobRates rates = new JobRates(Clock.fixed(T0.plusSeconds(2), ZoneOffset.UTC));
        rates.observe(List.of(job(T0, 0)));
        rates.observe(List.of(job(T0.plusSeconds(2), 2_000)));
        Job created = job(T0.plusSeconds(2), 10_000).withStatus(JobStatus.CREATED, null);
        rates.observe(List.of(created));

        assertThat(rates.of(job(T0.plusSeconds(2), 2_000))).isEmpty();
    }

    @Test
    void aWritersClockAnHourOffChangesNothing() {
        for (Duration skew : List.of(Duration.ofHours(1), Duration.ofHours(-1))) {
            TestClock clock = new TestClock(T0);
            JobRates rates = new JobRates(clock);
            rates.observe(List.of(job(T0.plus(skew), 0)));
            clock.now = T0.plusSeconds(2);
            rates.observe(List.of(job(T0.plus(skew).plusSeconds(2), 2_000)));

            assertThat(rates.of(job(T0.plus(skew).plusSeconds(2), 2_000)).orElseThrow().recordsPerSecond())
                .as("skew %s", skew).isCloseTo(1_000, within(0.001));
        }
    }

    /** The rate {@code silence} after progress recorded at T0 and T0+2s; checks it equals {@code expected} unless negative. */
    private static double rateAfterSilence(Duration silence, double expected) {
        TestClock clock = new TestClock(T0);
        JobRates rates = new JobRates(clock);
        rates.observe(List.of(job(T0, 0)));
        clock.now = T0.plusSeconds(2);
        rates.observe(List.of(job(T0.plusSeconds(2), 2_000)));
        clock.now = T0.plusSeconds(2).plus(silence);
        double rate = rates.of(job(T0.plusSeconds(2), 2_000)).orElseThrow().recordsPerSecond();
        if (expected >= 0) {
            assertThat(rate).isCloseTo(expected, within(0.001));
        }
        return rate;
    }

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        Instant now;

        TestClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static Job job(Instant updatedAt, long done) {
        return new Job(9, "v", "CREATE MATERIALIZED VIEW v AS SELECT * FROM t", null, true, JobStatus.CREATING, null,
            Map.of("t:0", 0L), Map.of("t:0", 10_000L), Map.of("t:0", done), done / 10_000.0, null, -1,
            T0, updatedAt);
    }
}
