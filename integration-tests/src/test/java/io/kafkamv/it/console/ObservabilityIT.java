package io.kafkamv.it.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import io.kafkamv.it.support.ShownJob;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What operators watch: {@code /metrics} scraped while a backfill runs and after (the job, object,
 * endpoint and Kafka Streams families), and the log (a line per job state change, no secrets).
 */
class ObservabilityIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void aRunningBackfillReportsItsProgressRateAndEta() throws Exception {
        Psql psql = SERVICE.psql();
        assertThat(psql.session(List.of("CREATE TABLE big (v INT)", "INSERT INTO big SELECT * FROM generate_series(1, 200000)",
            "FLUSH", "SET BACKGROUND_DDL = true", "SET BACKFILL_RATE_LIMIT = 10000",
            "CREATE MATERIALIZED VIEW slow AS SELECT v % 7 AS k, count(*) AS n FROM big GROUP BY v % 7")).exitCode()).isZero();
        String job = String.valueOf(ShownJob.only(psql).id());
        String tags = "job_id=\"" + job + "\",object=\"slow\"";

        String during = await().atMost(Duration.ofSeconds(60)).until(ObservabilityIT::scrape,
            text -> value(text, "kafkamv_job_eta_seconds{" + tags + "}").isPresent()
                && value(text, "kafkamv_job_records_backfilled{" + tags + "}").orElse(0.0) > 0);

        double backfilled = value(during, "kafkamv_job_records_backfilled{" + tags + "}").orElseThrow();
        double remaining = value(during, "kafkamv_job_records_remaining{" + tags + "}").orElseThrow();
        assertThat(backfilled + remaining).isEqualTo(200_000);
        assertThat(value(during, "kafkamv_job_progress{" + tags + "}").orElseThrow()).isBetween(0.0, 1.0);
        assertThat(value(during, "kafkamv_job_records_per_second{" + tags + "}").orElseThrow()).isPositive();
        assertThat(value(during, "kafkamv_job_eta_seconds{" + tags + "}").orElseThrow()).isPositive();
        assertThat(value(during, "kafkamv_job_state{" + tags + ",state=\"creating\"}")).contains(1.0);

        assertThat(psql.run("ALTER MATERIALIZED VIEW slow SET BACKFILL_RATE_LIMIT = -1").exitCode()).isZero();
        assertThat(psql.run("WAIT").exitCode()).isZero();
        String after = await().atMost(Duration.ofSeconds(60)).until(ObservabilityIT::scrape,
            text -> value(text, "kafkamv_view_rows{" + tags + "}").orElse(0.0) == 7);
        assertThat(value(after, "kafkamv_job_state{" + tags + ",state=\"created\"}")).contains(1.0);
        assertThat(value(after, "kafkamv_job_records_remaining{" + tags + "}")).contains(0.0);
        assertThat(value(after, "kafkamv_job_eta_seconds{" + tags + "}")).isEmpty();
        assertThat(value(after, "kafkamv_view_lag_records{" + tags + "}")).contains(0.0);
        assertThat(after).contains("kafkamv_view_records_per_second{" + tags + "}");

        List<String> stateChanges = Files.readAllLines(SERVICE.service().log()).stream()
            .filter(line -> line.contains("Job " + job + " (slow) ") && line.contains(" -> ")).map(line -> line.substring(line.indexOf("Job ")))
            .toList();
        assertThat(stateChanges).containsExactly("Job " + job + " (slow) accepted -> CREATING",
            "Job " + job + " (slow) CREATING -> CREATED");
    }

    @Test
    void secretsInStatementsReachNeitherTheLogNorAnyOutput() throws Exception {
        String secret = "Wr0ng-Secret-" + System.nanoTime();
        // A bare word as a value: unquoted words may be folded to lower case, so the secret is lower case already.
        String bare = secret.replace('-', '_').toLowerCase(java.util.Locale.ROOT);
        String kafka = SERVICE.service().bootstrapServers();
        Properties properties = new Properties();
        properties.put("bootstrap.servers", kafka);
        try (Admin admin = Admin.create(properties)) {
            admin.createTopics(List.of(new NewTopic("guarded-events", 1, (short) 1))).all().get();
        }
        Psql psql = SERVICE.psql();

        Psql.Result created = psql.session(List.of("CREATE SOURCE guarded (n INT) WITH (connector = 'kafka', "
                + "topic = 'guarded-events', format = 'json', schema.registry.password = '" + secret + "', "
                + "\"schema.registry.url.token\" = " + bare + ")",
            "CREATE MATERIALIZED VIEW guarded_total AS SELECT count(*) AS n FROM guarded", "SHOW SOURCES"));
        String objects = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://localhost:" + SERVICE.service().httpPort() + "/v1/objects")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        String sources = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://localhost:" + SERVICE.service().httpPort() + "/v1/sources")).build(),
            HttpResponse.BodyHandlers.ofString()).body();

        assertThat(created.exitCode()).as(created.stderr()).isZero();
        assertThat(objects).as("the statement is shown, its secrets masked")
            .contains("schema.registry.password = '***'").contains("schema.registry.url.token = '***'");
        assertThat(created.stdout() + created.stderr() + objects + sources).doesNotContain(secret)
            .doesNotContain(bare);
        assertThat(Files.readString(SERVICE.service().log())).doesNotContain(secret).doesNotContain(bare);
    }

    @Test
    void unreadableSourceRecordsEndpointsAndKafkaStreamsAreMeasured() throws Exception {
        String kafka = SERVICE.service().bootstrapServers();
        Properties properties = new Properties();
        properties.put("bootstrap.servers", kafka);
        try (Admin admin = Admin.create(properties)) {
            admin.createTopics(List.of(new NewTopic("metered-events", 2, (short) 1))).all().get();
        }
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
            for (String value : List.of("{\"n\": 1}", "oops", "{\"n\": \"two\"}", "{\"n\": 3}")) {
                producer.send(new ProducerRecord<>("metered-events", value)).get();
            }
        }
        Psql psql = SERVICE.psql();
        assertThat(psql.session(List.of(
            "CREATE SOURCE events (n INT) WITH (connector = 'kafka', topic = 'metered-events', format = 'json')",
            "CREATE MATERIALIZED VIEW event_total AS SELECT sum(n) AS total FROM events")).exitCode()).isZero();
        assertThat(psql.run("SELECT nope FROM event_total").exitCode()).isNotZero();
        assertThat(psql.value("SELECT total FROM event_total")).isEqualTo("4");
        String tags = "object=\"event_total\"";

        String text = await().atMost(Duration.ofSeconds(60)).until(ObservabilityIT::scrape,
            scraped -> sum(scraped, "kafkamv_view_dead_letters", tags) == 2);

        assertThat(text)
            .contains("kafkamv_statements_seconds_bucket{kind=\"select\",outcome=\"ok\",le=")
            .contains("kafkamv_statements_seconds_count{kind=\"create_source\",outcome=\"ok\"}")
            .contains("kafkamv_statement_errors_total{sqlstate=\"42703\"}")
            .contains("kafkamv_pgwire_sessions ")
            .contains("kafkamv_pgwire_connections ")
            // Kafka Streams' own client metrics, bridged (those that appear later, like an added thread's, are
            // bridged at the next look, every 30 s, so only those there from the start are asked for).
            .containsPattern("kafka_stream_thread_process_rate\\{[^}]*" + tags)
            .containsPattern("kafka_consumer_fetch_manager_records_lag_max\\{[^}]*" + tags)
            .contains("jvm_threads_live_threads");
    }

    @Test
    void valuesAViewCannotComputeAreNullCountedAndLoggedOnce() throws Exception {
        Psql psql = SERVICE.psql();
        Psql.Result created = psql.session(List.of("CREATE TABLE ratios (id INT PRIMARY KEY, a BIGINT, b INT)",
            "INSERT INTO ratios VALUES (1, 9223372036854775807, 0), (2, 10, 5), (3, 9223372036854775807, 1)", "FLUSH",
            "CREATE MATERIALIZED VIEW ratio_view AS SELECT id, a / b AS q, a + b AS s FROM ratios",
            "CREATE MATERIALIZED VIEW ratio_total AS SELECT sum(a) AS total FROM ratios"));
        assertThat(created.exitCode()).as(created.stderr()).isZero();

        assertThat(psql.run("SELECT id, q, s FROM ratio_view ORDER BY id", "-A", "-t").stdout().strip().split("\n"))
            .containsExactly("1||9223372036854775807", "2|2|15", "3|9223372036854775807|");
        assertThat(psql.value("SELECT total FROM ratio_total")).isEqualTo("18446744073709551624");
        await().atMost(Duration.ofSeconds(60)).until(ObservabilityIT::scrape,
            scraped -> sum(scraped, "kafkamv_view_evaluation_errors", "object=\"ratio_view\"") == 2);

        assertThat(psql.session(List.of("INSERT INTO ratios VALUES (4, 1, 0)", "FLUSH")).exitCode()).isZero();
        assertThat(psql.value("SELECT count(*) FROM ratio_view WHERE q IS NULL")).isEqualTo("2");
        await().atMost(Duration.ofSeconds(60)).until(ObservabilityIT::scrape,
            scraped -> sum(scraped, "kafkamv_view_evaluation_errors", "object=\"ratio_view\"") == 3);
        assertThat(Files.readAllLines(SERVICE.service().log()).stream()
            .filter(line -> line.contains("ratio_view") && line.contains("q could not be computed")))
            .as("one line per expression and kind of error").hasSize(1);

        Psql.Result overflow = psql.run("SELECT a + 1 FROM ratios WHERE id = 1");
        assertThat(overflow.exitCode()).isNotZero();
        assertThat(overflow.stderr()).contains("ERROR:  bigint out of range");
    }

    private static String scrape() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + SERVICE.service().httpPort() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    /** The value of the sample whose name and labels are exactly {@code series}. */
    private static Optional<Double> value(String text, String series) {
        for (String line : text.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Optional.of(Double.parseDouble(line.substring(series.length() + 1).trim()));
            }
        }
        return Optional.empty();
    }

    /** The sum of every sample of {@code name} whose labels contain {@code labels}. */
    private static double sum(String text, String name, String labels) {
        Matcher sample = Pattern.compile("^" + name + "\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE).matcher(text);
        double sum = 0;
        while (sample.find()) {
            if (sample.group(1).contains(labels)) {
                sum += Double.parseDouble(sample.group(2));
            }
        }
        return sum;
    }
}
