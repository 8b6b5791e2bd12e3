package io.kafkamv.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.embedded.EmbeddedKafkaCluster;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read of a view spread over two instances answers with all of its rows or with an error, never with part of
 * them: through REST by key on either instance, and through SELECT while the other instance is killed, restarts
 * and restores its partitions.
 */
class CompleteReadsIT {

    private static final int ROWS = 200_000;
    private static final int GROUPS = 1_000;
    private static final String COUNT = "SELECT count(*) || ',' || sum(n) FROM m";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path workDir;

    @Test
    void everyReadOfAViewOnTwoInstancesIsWholeOrAnErrorAcrossAKillAndARestore() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().dataDir(workDir.resolve("kafka")).build().start()) {
            String external = "--bootstrap-servers=" + kafka.bootstrapServers();
            ServiceProcess[] instances = {start(0, external), start(1, external)};
            try {
                Psql first = new Psql(instances[0].pgPort());
                Psql.Result created = first.session(List.of("CREATE TABLE t (k BIGINT PRIMARY KEY, v BIGINT)",
                    "INSERT INTO t SELECT g, g * 2 FROM generate_series(1, " + ROWS + ") g", "FLUSH",
                    // Few rows to read, but a long changelog to restore: every row changed 200 times.
                    "CREATE MATERIALIZED VIEW m AS SELECT k % " + GROUPS + " AS g, count(*) AS n FROM t GROUP BY k % " + GROUPS));
                assertThat(created.exitCode()).as(created.stderr()).isZero();
                String whole = GROUPS + "," + ROWS;
                List<String> answers = new CopyOnWriteArrayList<>();
                for (ServiceProcess instance : instances) {
                    Psql psql = new Psql(instance.pgPort());
                    await().atMost(Duration.ofMinutes(2)).until(() -> countOrError(psql, answers), whole::equals);
                }

                // Each key lives in one partition on one instance; both answer for every key.
                for (int g = 0; g < 40; g++) {
                    for (ServiceProcess instance : instances) {
                        JsonNode rows = JSON.readTree(get(instance, "/v1/views/m/rows?key=" + g)).get("rows");
                        assertThat(rows).as("key %d on the instance at port %d", g, instance.httpPort()).hasSize(1);
                        assertThat(rows.get(0).get(1).asLong()).isEqualTo(ROWS / GROUPS);
                    }
                }

                AtomicBoolean reading = new AtomicBoolean(true);
                CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> readCounts(instances[1], reading, answers));
                instances[0].kill();
                instances[0] = start(0, external);
                Psql restarted = new Psql(instances[0].pgPort());
                // Until it has restored its partitions the restarted instance may say the view is not ready: an error, also whole.
                await().atMost(Duration.ofMinutes(2)).until(() -> countOrError(restarted, answers), whole::equals);
                int seen = answers.size();
                await().atMost(Duration.ofMinutes(1)).until(() -> answers.size() >= seen + 20);
                reading.set(false);
                reader.get();

                assertThat(answers).as("counts read while an instance died and came back").isNotEmpty()
                    .allSatisfy(answer -> assertThat(answer).matches("(?s)" + whole + "|error .*"));
                assertThat(answers).contains(whole);
            } finally {
                for (ServiceProcess instance : instances) {
                    instance.close();
                }
            }
        }
    }

    /** Counts the view's rows (and the rows they count) through psql once, and keeps the count or the error among the answers. */
    private static String countOrError(Psql psql, List<String> answers) throws InterruptedException {
        String answer;
        try {
            answer = psql.value(COUNT);
        } catch (IOException e) {
            answer = "error " + e.getMessage().strip().replace('\n', ' ');
        }
        answers.add(answer);
        return answer;
    }

    /** Counts the view's rows (and the rows they count) through pgjdbc, one after the other, until told to stop: each count, or the error. */
    private static void readCounts(ServiceProcess instance, AtomicBoolean reading, List<String> answers) {
        String url = "jdbc:postgresql://localhost:" + instance.pgPort() + "/dev?user=root";
        while (reading.get()) {
            try (Connection connection = DriverManager.getConnection(url);
                 Statement statement = connection.createStatement()) {
                while (reading.get()) {
                    try (ResultSet result = statement.executeQuery(COUNT)) {
                        result.next();
                        answers.add(result.getString(1));
                    } catch (SQLException e) {
                        answers.add("error " + e.getSQLState() + ": " + e.getMessage());
                    }
                }
            } catch (SQLException e) {
                answers.add("error connecting: " + e.getMessage());
            }
        }
    }

    private static String get(ServiceProcess instance, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://localhost:" + instance.httpPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    private ServiceProcess start(int instance, String external) throws IOException {
        return ServiceProcess.start(workDir.resolve("instance-" + instance), external);
    }
}
