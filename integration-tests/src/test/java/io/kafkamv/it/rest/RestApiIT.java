package io.kafkamv.it.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The REST door, driven with the JDK's HTTP client. */
class RestApiIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void statementsJobsAndViewsThroughRest() throws Exception {
        Response created = post("/v1/statements", statements(
            "CREATE TABLE orders (id INT PRIMARY KEY, customer TEXT, amount INT); "
                + "INSERT INTO orders VALUES (1, 'ann', 5), (2, 'ann', 7), (3, 'bob', 1); FLUSH", false));
        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
        assertThat(created.body().at("/results/1/tag").asText()).isEqualTo("INSERT 0 3");

        Response background = post("/v1/statements", statements(
            "CREATE MATERIALIZED VIEW per_customer AS SELECT customer, count(*) AS n, sum(amount) AS total "
                + "FROM orders GROUP BY customer", true));
        assertThat(background.body().at("/results/0/tag").asText()).isEqualTo("CREATE MATERIALIZED VIEW");

        JsonNode jobs = get("/v1/jobs").body().get("jobs");
        JsonNode job = jobs.get(jobs.size() - 1);
        assertThat(job.get("object").asText()).isEqualTo("per_customer");
        assertThat(job.get("partitions")).isNotEmpty();
        Response waited = post("/v1/jobs/" + job.get("id").asLong() + "/wait?timeout=60s", JSON.createObjectNode());
        assertThat(waited.status()).isEqualTo(200);
        assertThat(waited.body().get("status").asText()).isEqualTo("CREATED");
        assertThat(waited.body().get("percent").asText()).isEqualTo("100.00%");

        Response view = get("/v1/views/per_customer");
        assertThat(view.body().get("key").toString()).isEqualTo("[\"customer\"]");
        assertThat(view.body().get("topology").asText()).contains("aggregate-");
        Response ann = get("/v1/views/per_customer/rows?key=ann");
        assertThat(ann.body().get("rows").toString()).isEqualTo("[[\"ann\",2,12]]");
        assertThat(get("/v1/views/per_customer/rows").body().get("rows")).hasSize(2);

        Response query = post("/v1/statements", statements("SELECT customer, total FROM per_customer ORDER BY total", false));
        assertThat(query.body().at("/results/0/rows").toString()).isEqualTo("[[\"bob\",1],[\"ann\",12]]");
    }

    @Test
    void errorsAreProblemDetailsWithCodeAndPosition() throws Exception {
        Response error = post("/v1/statements", statements("SELECT 1; SELECT nope FROM nowhere", false));

        assertThat(error.status()).isEqualTo(404);
        assertThat(error.contentType()).startsWith("application/problem+json");
        assertThat(error.body().get("code").asText()).isEqualTo("42P01");
        assertThat(error.body().get("detail").asText()).isEqualTo("relation \"nowhere\" does not exist");
        assertThat(error.body().get("position").asInt()).as("1-based, in the whole request").isEqualTo(28);
        assertThat(error.body().at("/results/0/tag").asText()).isEqualTo("SELECT 1");

        assertThat(get("/v1/jobs/424242").status()).isEqualTo(404);
        assertThat(get("/v1/views/absent").status()).isEqualTo(404);
    }

    @Test
    void metricsArePrometheusText() throws Exception {
        post("/v1/statements", statements("CREATE TABLE metered (v INT); INSERT INTO metered VALUES (1); "
            + "CREATE MATERIALIZED VIEW metered_view AS SELECT count(*) AS n FROM metered; SELECT n FROM metered_view", false));

        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri("/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
            .contains("kafkamv_statements_seconds_count{kind=\"select\",outcome=\"ok\"}")
            .contains("kafkamv_jobs{status=\"created\"}")
            .contains("kafkamv_job_progress{job_id=")
            .contains("kafka_stream_")
            .contains("jvm_memory_used_bytes");
    }

    @Test
    void openApiDescribesTheApi() throws Exception {
        JsonNode openApi = get("/openapi.json").body();

        assertThat(openApi.get("openapi").asText()).startsWith("3.");
        assertThat(openApi.get("paths").has("/v1/statements")).isTrue();
        assertThat(openApi.get("paths").has("/v1/jobs/{id}/wait")).isTrue();
        assertThat(openApi.at("/paths/~1v1~1statements~1{id}/get")).as("background statements").isNotEmpty();
    }

    @Test
    void manyClientsWaitingForAJobHoldNoThreadTheCancelNeeds() throws Exception {
        Response created = post("/v1/statements", statements("CREATE TABLE paused_input (v INT); "
            + "INSERT INTO paused_input VALUES (1), (2); FLUSH; SET BACKFILL_RATE_LIMIT = 0; "
            + "CREATE MATERIALIZED VIEW paused AS SELECT count(*) AS n FROM paused_input", true));
        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
        JsonNode jobs = get("/v1/jobs").body().get("jobs");
        long id = jobs.get(jobs.size() - 1).get("id").asLong();
        for (String timeout : List.of("soon", "3600s")) {
            HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(uri("/v1/jobs/" + id + "/wait?timeout=" + timeout))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).as(timeout).isEqualTo(400);
        }

        // More waiting clients than the server has threads (Javalin's pool has at most 250).
        List<CompletableFuture<HttpResponse<String>>> waits = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            waits.add(HTTP.sendAsync(HttpRequest.newBuilder(uri("/v1/jobs/" + id + "/wait?timeout=120s"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()));
        }
        HttpResponse<String> cancel = HTTP.send(HttpRequest.newBuilder(uri("/v1/jobs/" + id)).DELETE()
            .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(cancel.statusCode()).isEqualTo(202);
        CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertThat(waits).allSatisfy(wait -> assertThat(wait.get().statusCode()).as(wait.get().body()).isIn(404, 410));
    }

    private static ObjectNode statements(String sql, boolean background) {
        ObjectNode body = JSON.createObjectNode().put("sql", sql);
        if (background) {
            body.putObject("session").put("background_ddl", true);
        }
        return body;
    }

    record Response(int status, String contentType, JsonNode body) {
    }

    private static Response get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).GET().build());
    }

    private static Response post(String path, JsonNode body) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
    }

    private static Response send(HttpRequest request) throws Exception {
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
            JSON.readTree(response.body()));
    }

    private static URI uri(String path) {
        return URI.create("http://localhost:" + SERVICE.service().httpPort() + path);
    }
}
