package io.kafkamv.jobstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

class JobRecordsTest {

    @Test
    void recordsAreCountedFromEachPartitionsStartToItsTarget() {
        Job job = job(JobStatus.CREATING, Map.of("t:0", 50L, "t:1", 30L));

        assertThat(job.recordsDone()).isEqualTo(50 + 20);
        assertThat(job.recordsRemaining()).isEqualTo(50 + 10);
    }

    @Test
    void offsetsPastTheTargetCountOnlyUpToIt() {
        Job job = job(JobStatus.CREATING, Map.of("t:0", 500L, "t:1", 40L));

        assertThat(job.recordsDone()).isEqualTo(100 + 30);
        assertThat(job.recordsRemaining()).isZero();
    }

    @Test
    void offsetsBelowThePartitionsStartCountAsNothingDone() {
        // A source topic deleted and made again starts at lower offsets than the job recorded.
        Job job = job(JobStatus.CREATING, Map.of("t:0", 0L, "t:1", 3L));

        assertThat(job.recordsDone()).isZero();
        assertThat(job.recordsRemaining()).isEqualTo(100 + 30);
    }

    @Test
    void aCreatedJobHasNothingLeft() {
        assertThat(job(JobStatus.CREATED, Map.of()).recordsRemaining()).isZero();
    }

    private static Job job(JobStatus status, Map<String, Long> consumed) {
        return new Job(7, "v", "CREATE MATERIALIZED VIEW v AS SELECT 1", null, true, status, null,
            Map.of("t:0", 0L, "t:1", 10L), Map.of("t:0", 100L, "t:1", 40L), consumed, 0.5, null, -1,
            Instant.EPOCH, Instant.EPOCH);
    }
}
