package io.kafkamv.service.jobs;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the rows of a view that another instance holds, from its internal REST endpoint
 * {@code /internal/v1/jobs/{id}/rows}: each row in the binary row format, base64 in JSON.
 */
final class RemoteViewRows {

    static final String PATH = "/internal/v1/jobs/%d/rows";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();

    List<byte[]> fetch(String host, long jobId) throws InterruptedException {
        URI uri = URI.create("http://" + host + String.format(PATH, jobId));
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("instance " + host + " answered " + response.statusCode()
                    + " for the rows of job " + jobId + ": " + response.body());
            }
            List<byte[]> rows = new ArrayList<>();
            for (JsonNode row : json.readTree(response.body()).get("rows")) {
                rows.add(Base64.getDecoder().decode(row.asText()));
            }
            return rows;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the rows of job " + jobId + " held by instance " + host
                + ": " + e.getMessage(), e);
        }
    }
}
