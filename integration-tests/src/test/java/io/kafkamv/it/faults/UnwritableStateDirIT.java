package io.kafkamv.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The directory where views keep their state cannot be written: a new view's job fails with the reason,
 * the service stays up and serves everything else, and once the directory is usable again a view can
 * be created. (Tests may run as root, whom file modes do not stop, so a file takes the directory's place.)
 */
class UnwritableStateDirIT {

    @TempDir
    Path workDir;

    @Test
    void aJobThatCannotKeepStateFailsWithTheReasonAndTheServiceGoesOn() throws Exception {
        Path data = workDir.resolve("data");
        try (ServiceProcess service = ServiceProcess.start(data)) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.session(List.of("CREATE TABLE t (v INT)", "INSERT INTO t SELECT * FROM generate_series(1, 1000)",
                "FLUSH")).exitCode()).isZero();
            Path stateDir = data.resolve("streams");
            deleteRecursively(stateDir);
            Files.writeString(stateDir, "not a directory");

            Psql.Result failed = psql.run("CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n FROM t");

            assertThat(failed.exitCode()).isNotZero();
            assertThat(failed.stderr()).contains("ERROR:  job ").contains(" failed: cannot start: ")
                .contains(stateDir.toString());
            assertThat(psql.value("SELECT count(*) FROM t")).as("the service serves on").isEqualTo("1000");
            assertThat(psql.run("INSERT INTO t VALUES (1001)").exitCode()).isZero();

            Files.delete(stateDir);
            assertThat(psql.run("DROP MATERIALIZED VIEW m").exitCode()).as("the failed view can be dropped").isZero();
            Psql.Result created = psql.session(List.of("FLUSH", "CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n FROM t",
                "SELECT n FROM m"), "-A", "-t");
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
