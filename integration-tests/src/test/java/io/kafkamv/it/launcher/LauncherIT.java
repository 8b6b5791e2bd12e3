package io.kafkamv.it.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher as a user meets it: start, psql, stop, start again on the same data dir. */
class LauncherIT {

    @TempDir
    Path workDir;

    @Test
    void servesPsqlAndRestartsOnTheSameDataDir() throws Exception {
        Path dataDir = workDir.resolve("data");

        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            assertThat(service.readyLine())
                .startsWith("kafka-mv ready: psql -h localhost -p " + service.pgPort() + " -U root -d dev");

            Psql.Result select = new Psql(service.pgPort()).run("SELECT 1");
            assertThat(select.exitCode()).as(select.stderr()).isZero();
            assertThat(select.stdout()).isEqualTo(" ?column? \n----------\n        1\n(1 row)\n\n");

            assertThat(httpGet(service.httpPort(), "/readyz")).isEqualTo(200);
            createTopic(service.bootstrapServers(), "survives-restart");

            assertThat(service.stop(Duration.ofSeconds(30))).isEqualTo(143);
            assertThat(Files.readString(service.log())).contains("kafka-mv stopped");
        }

        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            assertThat(topics(service.bootstrapServers())).contains("survives-restart", "_kafka_mv_jobs");
            Psql.Result select = new Psql(service.pgPort()).run("SELECT 2 AS answer", "-A", "-t");
            assertThat(select.stdout()).isEqualTo("2\n");
        }
    }

    @Test
    void aTypoGetsAPositionedErrorAndTheSessionStaysUsable() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());

            Psql.Result error = psql.run("SELECT 1 FROM missing_table");

            assertThat(error.exitCode()).isEqualTo(1);
            assertThat(error.stderr())
                .contains("ERROR:  relation \"missing_table\" does not exist")
                .contains("LINE 1: SELECT 1 FROM missing_table\n                      ^");
            assertThat(psql.run("SELECT 'still here'", "-A", "-t").stdout()).isEqualTo("still here\n");
        }
    }

    private static int httpGet(int port, String path) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build();
        return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static void createTopic(String bootstrapServers, String name) throws Exception {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers))) {
            admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get();
        }
    }

    private static Set<String> topics(String bootstrapServers) throws Exception {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers))) {
            return admin.listTopics().names().get();
        }
    }

    private static Properties adminProperties(String bootstrapServers) {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return properties;
    }
}
