package io.kafkamv.it.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Background statements ({@code POST /v1/statements?async=true}): accepted at once, followed with
 * GET (progress, then paged results), cancelled with DELETE, seen by SHOW JOBS and WAIT in psql,
 * and all or nothing: a run killed with SIGKILL leaves no rows behind, and the run after the
 * restart writes every row exactly once.
 */
class BackgroundStatementsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final long ROWS = 1_500_000;

    @TempDir
    Path workDir;

    record Response(int status, JsonNode body) {
    }

    @Test
    void aLongInsertIsAllOrNothingAndFinishesExactlyOnceAfterKillNine() throws Exception {
        Path dataDir = workDir.resolve("data");
        long id;
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.session(List.of("CREATE TABLE log (v BIGINT)", "CREATE TABLE keyed (id BIGINT PRIMARY KEY, v INT)",
                "CREATE MATERIALIZED VIEW log_totals AS SELECT count(*) AS n, sum(v) AS s FROM log")).exitCode()).isZero();
            Response accepted = post(service, "/v1/statements?async=true", "INSERT INTO log SELECT x FROM generate_series(1, "
                + ROWS + ") AS s(x); INSERT INTO keyed SELECT x, x % 7 FROM generate_series(1, " + ROWS + ") AS s(x)");
            assertThat(accepted.status()).as(accepted.body().toString()).isEqualTo(202);
            id = accepted.body().get("id").asLong();

            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() ->
                get(service, "/v1/statements/" + id).body().at("/progress/rows_written").asLong() > 0);
            String shown = psql.run("SHOW JOBS").stdout();
            assertThat(shown).contains(String.valueOf(id)).contains("INSERT INTO log").contains("rows written");
            assertThat(get(service, "/v1/statements/" + id).body().get("status").asText()).isEqualTo("RUNNING");
            assertThat(psql.value("SELECT count(*) FROM log")).as("nothing is visible before the commit").isEqualTo("0");
            // A view reads a table only up to its first open transaction's start, so FLUSH waits for the statement.
            Psql.Result flush = psql.session(List.of("SET statement_timeout = '2s'", "FLUSH"));
            assertThat(flush.stderr()).contains("ERROR:  canceling statement due to statement timeout")
                .contains("materialized view \"log_totals\" has not yet processed its sources")
                .contains("A background statement's transaction is open on \"log\"");

            service.kill();
        }

        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.run("WAIT").exitCode()).isZero();
            JsonNode done = get(service, "/v1/statements/" + id).body();
            assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("DONE");
            assertThat(done.at("/results/0/tag").asText()).isEqualTo("INSERT 0 " + ROWS);
            assertThat(done.at("/results/1/tag").asText()).isEqualTo("INSERT 0 " + ROWS);
            assertThat(done.at("/progress/rows_written").asLong()).isEqualTo(2 * ROWS);
            // DONE is committed with the rows, but a commit's markers reach the partitions one by one.
            await().atMost(Duration.ofSeconds(30)).until(() -> psql.value("SELECT count(*) FROM keyed").equals(String.valueOf(ROWS)));
            assertThat(psql.value("SELECT count(*) || ',' || count(DISTINCT v) FROM log"))
                .as("the killed run's rows were aborted; the table has each row once").isEqualTo(ROWS + "," + ROWS);
            assertThat(psql.run("FLUSH").exitCode()).isZero();
            assertThat(psql.value("SELECT n || ',' || s FROM log_totals"))
                .as("a view over a table a transaction wrote reaches the commit").isEqualTo(ROWS + "," + ROWS * (ROWS + 1) / 2);
        }
    }

    @Test
    void resultsArePagedCancelledStatementsWriteNothingAndErrorsKeepTheirPosition() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.session(List.of("CREATE TABLE numbers (id BIGINT PRIMARY KEY, v INT)",
                "INSERT INTO numbers SELECT x, x % 7 FROM generate_series(1, 1200) AS s(x)", "CREATE TABLE sink (v BIGINT PRIMARY KEY)"))
                .exitCode()).isZero();

            long query = post(service, "/v1/statements?async=true", "SELECT id, v FROM numbers ORDER BY id").body().get("id").asLong();
            assertThat(psql.run("WAIT").exitCode()).isZero();
            JsonNode last = get(service, "/v1/statements/" + query + "?page=2").body();
            assertThat(last.get("status").asText()).isEqualTo("DONE");
            assertThat(last.at("/results/0/row_count").asInt()).isEqualTo(1200);
            assertThat(last.at("/results/0/pages").asInt()).isEqualTo(3);
            assertThat(last.at("/results/0/rows")).hasSize(200);
            assertThat(last.at("/results/0/rows/0").toString()).isEqualTo("[1001," + 1001 % 7 + "]");

            long cancelled = post(service, "/v1/statements?async=true",
                // Long enough to be still running when the cancel comes: 5M rows took 3.6 s by now.
                "INSERT INTO sink SELECT x FROM generate_series(1, 30000000) AS s(x)").body().get("id").asLong();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100)).until(() ->
                get(service, "/v1/statements/" + cancelled).body().at("/progress/rows_written").asLong() > 0);
            Psql.Result update = psql.run("UPDATE sink SET v = v WHERE v = 1");
            assertThat(update.exitCode()).isNotZero();
            assertThat(update.stderr()).as("its rows read as before the background insert").contains("must wait");
            Response cancelling = send(service, HttpRequest.newBuilder(uri(service, "/v1/statements/" + cancelled)).DELETE().build());
            assertThat(cancelling.status()).isEqualTo(202);
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() ->
                get(service, "/v1/statements/" + cancelled).body().get("status").asText().equals("CANCELLED"));
            assertThat(psql.value("SELECT count(*) FROM sink")).isEqualTo("0");
            assertThat(send(service, HttpRequest.newBuilder(uri(service, "/v1/statements/" + cancelled)).DELETE().build())
                .status()).as("a finished statement is forgotten").isEqualTo(204);
            assertThat(get(service, "/v1/statements/" + cancelled).status()).isEqualTo(404);

            Response typo = post(service, "/v1/statements?async=true", "SELECT 1; SELEC 2");
            assertThat(typo.status()).isEqualTo(400);
            assertThat(typo.body().get("code").asText()).isEqualTo("42601");
            assertThat(typo.body().get("position").asInt()).as("1-based, in the whole script").isEqualTo(11);
            Response ddl = post(service, "/v1/statements?async=true", "CREATE TABLE later (v INT)");
            assertThat(ddl.status()).isEqualTo(400);
            assertThat(ddl.body().get("code").asText()).isEqualTo("0A000");

            long failing = post(service, "/v1/statements?async=true", "INSERT INTO sink VALUES (1); SELECT 1 / (v - v) FROM numbers")
                .body().get("id").asLong();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() ->
                get(service, "/v1/statements/" + failing).body().get("status").asText().equals("FAILED"));
            JsonNode failed = get(service, "/v1/statements/" + failing).body();
            assertThat(failed.at("/error/code").asText()).as(failed.toString()).isEqualTo("22012");
            assertThat(psql.value("SELECT count(*) FROM sink")).as("the first statement's insert went with the failure").isEqualTo("0");
            assertThat(psql.run("UPDATE sink SET v = v WHERE v = 1").exitCode()).as("no transaction in flight").isZero();
        }
    }

    @Test
    void anInstanceRunsAFewStatementsAtOnceQueuesTheRestAndRefusesBeyondALimit() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.run("CREATE TABLE queued (v BIGINT)").exitCode()).isZero();
            // The instance runs max(2, cores) at once; the test runs on the same machine.
            int slots = Math.max(2, Runtime.getRuntime().availableProcessors());
            List<Long> longRunning = new java.util.ArrayList<>();
            for (int i = 0; i < slots; i++) {
                longRunning.add(post(service, "/v1/statements?async=true", "SELECT count(*) FROM generate_series(1, 2000000000)")
                    .body().get("id").asLong());
            }
            List<Long> waiting = new java.util.ArrayList<>();
            for (int i = 0; i < 32; i++) {
                Response accepted = post(service, "/v1/statements?async=true", "INSERT INTO queued VALUES (" + i + ")");
                assertThat(accepted.status()).as(accepted.body().toString()).isEqualTo(202);
                waiting.add(accepted.body().get("id").asLong());
            }
            Response refused = post(service, "/v1/statements?async=true", "INSERT INTO queued VALUES (-1)");
            assertThat(refused.status()).as(refused.body().toString()).isEqualTo(429);
            assertThat(refused.body().get("code").asText()).isEqualTo("53400");
            assertThat(psql.value("SELECT count(*) FROM queued")).as("none ran while the slots were taken").isEqualTo("0");

            for (long id : longRunning) {
                send(service, HttpRequest.newBuilder(uri(service, "/v1/statements/" + id)).DELETE().build());
            }
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(() -> {
                for (long id : waiting) {
                    if (!get(service, "/v1/statements/" + id).body().get("status").asText().equals("DONE")) {
                        return false;
                    }
                }
                return true;
            });
            assertThat(psql.value("SELECT count(*) || ',' || sum(v) FROM queued")).isEqualTo("32," + 31 * 32 / 2);
        }
    }

    @Test
    void resultsNeverDeletedDoNotKeepARestartOnASmallHeapFromStarting() throws Exception {
        // Each result is about 21 MB of JSON in the job store's topic (100,000 rows of 200 characters), 250 MB in all:
        // kept in the heap as JSON trees, as before, they need well over the 256 MB the restarted instance has.
        int statements = 12;
        Path dataDir = workDir.resolve("data");
        List<Long> ids = new java.util.ArrayList<>();
        try (ServiceProcess service = ServiceProcess.start(dataDir)) {
            for (int i = 0; i < statements; i++) {
                Response accepted = post(service, "/v1/statements?async=true",
                    "SELECT x + " + i + " AS x, repeat('r', 200) AS padding FROM generate_series(1, 100000) AS s(x)");
                assertThat(accepted.status()).as(accepted.body().toString()).isEqualTo(202);
                ids.add(accepted.body().get("id").asLong());
            }
            assertThat(new Psql(service.pgPort()).run("WAIT").exitCode()).isZero();
            for (long id : ids) {
                JsonNode done = get(service, "/v1/statements/" + id).body();
                assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("DONE");
            }
        }

        try (ServiceProcess service = ServiceProcess.startWithMaxHeap(dataDir, "256m")) {
            long last = ids.get(statements - 1);
            JsonNode first = get(service, "/v1/statements/" + last + "?page=0").body();
            assertThat(first.at("/results/0/row_count").asInt()).as(first.toString()).isEqualTo(100_000);
            int pages = first.at("/results/0/pages").asInt();
            JsonNode end = get(service, "/v1/statements/" + last + "?page=" + (pages - 1)).body();
            JsonNode lastRow = end.at("/results/0/rows").get(end.at("/results/0/rows").size() - 1);
            assertThat(lastRow.get(0).asLong()).isEqualTo(100_000 + statements - 1);
            assertThat(lastRow.get(1).asText()).hasSize(200);
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.value("SELECT count(*) FROM generate_series(1, 1000)")).isEqualTo("1000");
        }
    }

    private static Response post(ServiceProcess service, String path, String sql) throws Exception {
        return send(service, HttpRequest.newBuilder(uri(service, path)).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(JSON.createObjectNode().put("sql", sql)))).build());
    }

    private static Response get(ServiceProcess service, String path) throws Exception {
        return send(service, HttpRequest.newBuilder(uri(service, path)).GET().build());
    }

    private static Response send(ServiceProcess service, HttpRequest request) throws Exception {
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        return new Response(response.statusCode(), response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body()));
    }

    private static URI uri(ServiceProcess service, String path) {
        return URI.create("http://localhost:" + service.httpPort() + path);
    }
}
