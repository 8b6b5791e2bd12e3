package io.kafkamv.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The directory where views keep their state cannot be written: that is this instance's problem, not the view's.
 * A new view's job is not failed; the instance tries again with backoff, says why in SHOW JOBS, and serves
 * everything else meanwhile; once the directory is usable again the job starts and finishes by itself. (Tests may
 * run as root, whom file modes do not stop, so a file takes the directory's place.)
 */
class UnwritableStateDirIT {

    @TempDir
    Path workDir;

    @Test
    void aJobThatCannotKeepStateHereWaitsForTheDirectoryAndTheServiceGoesOn() throws Exception {
        Path data = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(data)) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.session(List.of("CREATE TABLE t (v INT)", "INSERT INTO t SELECT * FROM generate_series(1, 1000)",
                "FLUSH")).exitCode()).isZero();
            Path stateDir = data.resolve("streams");
            deleteRecursively(stateDir);
            Files.writeString(stateDir, "not a directory");

            Psql.Result accepted = psql.session(List.of("SET BACKGROUND_DDL = true",
                "CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n FROM t"));
            assertThat(accepted.exitCode()).as(accepted.stderr()).isZero();

            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout())
                .contains("CREATE MATERIALIZED VIEW m").contains("not running on this instance, attempt ")
                .contains(stateDir.toString()));
            assertThat(psql.value("SELECT count(*) FROM t")).as("the service serves on").isEqualTo("1000");
            assertThat(psql.run("INSERT INTO t VALUES (1001)").exitCode()).isZero();
            assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout()).as("the job is not failed").contains("CREATE MATERIALIZED VIEW m");

            Files.delete(stateDir);
            Psql.Result created = psql.session(List.of("WAIT", "FLUSH", "SELECT n FROM m"), "-A", "-t");
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(created.stdout()).endsWith("1001\n");
        }
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
