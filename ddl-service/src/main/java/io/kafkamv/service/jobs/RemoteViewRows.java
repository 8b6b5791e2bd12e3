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
import io.kafkamv.service.auth.BearerTokens;

/**
 * Reads the rows of a view or an index that another instance holds, from its internal REST endpoints
 * {@code /internal/v1/jobs/{id}/rows} and {@code .../index?prefix=}: each row in the binary row
 * format, base64 in JSON.
 */
final class RemoteViewRows {

    static final String PATH = "/internal/v1/jobs/%d/rows?partitions=%s";
    static final String INDEX_PATH = "/internal/v1/jobs/%d/index?prefix=%s";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final BearerTokens tokens;

    RemoteViewRows(BearerTokens tokens) {
        this.tokens = tokens;
    }

    /** The rows of these partitions of a view, all of which the instance at {@code host} must hold ready. */
    List<byte[]> fetch(String host, long jobId, java.util.Set<Integer> partitions) throws InterruptedException {
        String list = partitions.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
        return rows(URI.create("http://" + host + String.format(PATH, jobId, list)), jobId);
    }

    /** An index's rows under a prefix, held by another instance. */
    List<byte[]> fetchIndex(String host, long jobId, byte[] prefix) throws InterruptedException {
        return rows(URI.create("http://" + host + String.format(INDEX_PATH, jobId,
            Base64.getUrlEncoder().encodeToString(prefix))), jobId);
    }

    private List<byte[]> rows(URI uri, long jobId) throws InterruptedException {
        String host = uri.getAuthority();
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60));
            tokens.authorization().ifPresent(authorization -> request.header("Authorization", authorization));
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
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
