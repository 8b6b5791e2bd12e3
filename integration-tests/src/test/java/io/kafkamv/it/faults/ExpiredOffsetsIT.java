package io.kafkamv.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.embedded.EmbeddedKafkaCluster;
import io.kafkamv.it.support.KafkaAdmin;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every instance down for longer than the broker keeps an empty group's offsets ({@code offsets.retention.minutes},
 * 7 days by default, often less on managed Kafka): the view's consumer group has no committed offsets when the
 * service comes back, while its state is all in its changelogs. Reading the input again from its beginning on top of
 * that state would count every row twice; the view must come back exact, and no read may show anything else.
 * Deleting the group while the service is down is what the broker's expiry does.
 */
class ExpiredOffsetsIT {

    private static final int ROWS = 20_000;

    @TempDir
    Path workDir;

    @Test
    void aViewWhoseGroupOffsetsExpiredComesBackExactNotCountedTwice() throws Exception {
        try (EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder().nodes(1).dataDir(workDir.resolve("kafka"))
                .build().start()) {
            String bootstrap = "--bootstrap-servers=" + kafka.bootstrapServers();
            try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"), bootstrap)) {
                Psql psql = new Psql(service.pgPort());
                Psql.Result created = psql.session(List.of("CREATE TABLE t (id BIGINT PRIMARY KEY, k INT, v BIGINT)",
                    "INSERT INTO t SELECT x, x % 100, x FROM generate_series(1, " + ROWS + ") AS s(x)",
                    "CREATE MATERIALIZED VIEW m AS SELECT k, count(*) AS n, sum(v) AS s FROM t GROUP BY k"));
                assertThat(created.exitCode()).as(created.stderr()).isZero();
                assertThat(view(psql)).isEqualTo(expected(ROWS));
                assertThat(service.stop(Duration.ofMinutes(1))).as("stopped by SIGTERM").isEqualTo(143);
            }
            Set<String> groups = KafkaAdmin.groups(kafka.bootstrapServers());
            assertThat(groups).as("the view's consumer group").anyMatch(group -> group.startsWith("kmv-job-"));
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
                // The view's members are static: the group is empty once their sessions end.
                await().atMost(Duration.ofMinutes(1)).ignoreExceptionsInstanceOf(ExecutionException.class).untilAsserted(() ->
                    admin.deleteConsumerGroups(groups.stream().filter(group -> group.startsWith("kmv-job-")).toList()).all().get());
            }

            try (ServiceProcess again = ServiceProcess.start(workDir.resolve("data"), bootstrap)) {
                Psql psql = new Psql(again.pgPort());
                // While the view is rebuilt a read may be refused, but one that answers must be exact.
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    Psql.Result read = psql.run("SELECT count(*) || ',' || sum(n) || ',' || sum(s) FROM m", "-A", "-t");
                    if (read.exitCode() != 0) {
                        assertThat(read.stderr()).contains("ERROR");
                        return false;
                    }
                    assertThat(read.stdout().strip()).as("a read after the restart").isEqualTo(expected(ROWS));
                    return true;
                });
                Psql.Result more = psql.session(List.of(
                    "INSERT INTO t SELECT x, x % 100, x FROM generate_series(" + (ROWS + 1) + ", " + (ROWS + 500) + ") AS s(x)",
                    "FLUSH"));
                assertThat(more.exitCode()).as(more.stderr()).isZero();
                assertThat(view(psql)).isEqualTo(expected(ROWS + 500));
                // It started over as a second generation of its application, whose first one is deleted.
                String first = groups.stream().filter(group -> group.startsWith("kmv-job-")).findFirst().orElseThrow();
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(KafkaAdmin.groups(kafka.bootstrapServers()))
                    .contains(first + "-g1").doesNotContain(first));
                assertThat(KafkaAdmin.topics(kafka.bootstrapServers())).as("the first generation's topics")
                    .noneMatch(topic -> topic.startsWith(first + "-") && !topic.startsWith(first + "-g1-"));
                // The job says so: its progress, which never goes back, does not.
                String id = psql.value("SELECT id FROM kafka_mv.jobs WHERE name = 'm'");
                JsonNode job = new ObjectMapper().readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + again.httpPort() + "/v1/jobs/" + id)).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
                assertThat(job.path("generation").asInt()).as(job.toString()).isEqualTo(1);
                assertThat(job.path("rebuilding").asBoolean()).as(job.toString()).isFalse();
            }
        }
    }

    private static String view(Psql psql) throws Exception {
        return psql.value("SELECT count(*) || ',' || sum(n) || ',' || sum(s) FROM m");
    }

    private static String expected(long rows) {
        return "100," + rows + "," + rows * (rows + 1) / 2;
    }
}
