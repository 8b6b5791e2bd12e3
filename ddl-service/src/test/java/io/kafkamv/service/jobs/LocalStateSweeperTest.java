package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStateSweeperTest {

    @TempDir
    Path stateDir;

    @Test
    void deletesTheStateOfJobsThatWillNotRunHereAgainAndKeepsTheRest() throws Exception {
        for (String application : new String[] {"kmv-job-1001", "kmv-job-1002", "kmv-job-1003", "kmv-job-1004",
            "kmv-job-1004-g1", "kmv-job-1005", "kmv-job-1006", "something-else"}) {
            Files.createDirectories(stateDir.resolve(application).resolve("0_0").resolve("rocksdb"));
            Files.writeString(stateDir.resolve(application).resolve("0_0").resolve("rocksdb").resolve("000001.sst"), "x");
        }
        Map<Long, Job> jobs = Map.of(
            1001L, job(1001, JobStatus.CREATED, 0),
            1002L, job(1002, JobStatus.FAILED, 0),
            1003L, job(1003, JobStatus.CANCELLING, 0),
            1004L, job(1004, JobStatus.CREATED, 1),
            1006L, job(1006, JobStatus.FAILED, 0));

        assertThat(new LocalStateSweeper(stateDir).sweep(jobs, Set.of("kmv-job-1006")))
            .containsExactlyInAnyOrder("kmv-job-1002", "kmv-job-1003", "kmv-job-1004", "kmv-job-1005");

        try (var left = Files.list(stateDir)) {
            assertThat(left.map(path -> path.getFileName().toString()))
                .as("a running job's, a job's current generation's, one still running here and what is not ours")
                .containsExactlyInAnyOrder("kmv-job-1001", "kmv-job-1004-g1", "kmv-job-1006", "something-else");
        }
    }

    @Test
    void aStateDirectoryNotMadeYetIsNothingToSweep() {
        assertThat(new LocalStateSweeper(stateDir.resolve("streams")).sweep(Map.of(), Set.of())).isEmpty();
    }

    private static Job job(long id, JobStatus status, int generation) {
        Instant now = Instant.now();
        return new Job(id, "v", "CREATE MATERIALIZED VIEW v AS SELECT 1", null, true, status, null, Map.of(), Map.of(),
            Map.of(), 0, "instance-1", -1, now, now).withGeneration(generation, Map.of());
    }
}
