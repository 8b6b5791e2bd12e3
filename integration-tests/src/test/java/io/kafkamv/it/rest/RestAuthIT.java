package io.kafkamv.it.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With --rest-tokens-file, the REST API and the metrics let in only holders of a token, and tell others nothing. */
class RestAuthIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String TOKEN = "ops-token-" + Long.toHexString(System.nanoTime()) + "-0123456789";

    @TempDir
    Path workDir;

    @Test
    void onlyHoldersOfATokenGetInAndRefusedClientsLearnNothing() throws Exception {
        Path tokens = workDir.resolve("rest-tokens");
        Files.writeString(tokens, "# who may use the REST API\nops:" + TOKEN + "\n");
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"), "--rest-tokens-file=" + tokens)) {
            Psql psql = new Psql(service.pgPort());
            assertThat(psql.session(List.of("CREATE TABLE payroll_secrets (id INT PRIMARY KEY, amount INT)",
                "CREATE MATERIALIZED VIEW payroll_total AS SELECT sum(amount) AS total FROM payroll_secrets")).exitCode())
                .isZero();
            String base = "http://localhost:" + service.httpPort();

            for (String path : List.of("/v1/objects", "/v1/jobs", "/v1/views/payroll_total", "/metrics",
                    "/internal/v1/jobs/1002/rows")) {
                HttpResponse<String> missing = get(base + path, null);
                HttpResponse<String> wrong = get(base + path, "Bearer not-" + TOKEN);
                for (HttpResponse<String> refused : List.of(missing, wrong)) {
                    assertThat(refused.statusCode()).as(path).isEqualTo(401);
                    assertThat(refused.headers().firstValue("WWW-Authenticate")).as(path).contains("Bearer realm=\"kafka-mv\"");
                    assertThat(refused.body()).as(path).doesNotContain("payroll");
                }
            }
            // Another spelling of a guarded path must not get past the guard (GET /metrics/ did).
            for (String spelling : List.of("/metrics/", "//metrics", "/METRICS", "/Metrics/", "/v1/objects/", "//v1/objects",
                    "/v1//objects", "/V1/objects", "/v1/views/payroll_total/", "/./metrics", "/internal//v1/jobs/1002/rows")) {
                HttpResponse<String> response = get(base + spelling, null);
                assertThat(response.statusCode()).as(spelling).isIn(400, 401, 404);
                assertThat(response.body()).as(spelling).doesNotContain("payroll").doesNotContain("kafkamv_jobs");
            }
            HttpResponse<String> statement = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/statements"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"SHOW TABLES\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertThat(statement.statusCode()).isEqualTo(401);

            assertThat(get(base + "/v1/objects", "Bearer " + TOKEN).body()).contains("payroll_secrets", "payroll_total");
            assertThat(get(base + "/metrics", "bearer " + TOKEN).body()).contains("kafkamv_jobs");
            for (String open : List.of("/healthz", "/readyz", "/openapi.json", "/", "/console.js")) {
                assertThat(get(base + open, null).statusCode()).as(open).isEqualTo(200);
            }
            assertThat(Files.readString(service.log())).contains("Refused GET /v1/objects").doesNotContain(TOKEN);
        }
    }

    private static HttpResponse<String> get(String uri, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
