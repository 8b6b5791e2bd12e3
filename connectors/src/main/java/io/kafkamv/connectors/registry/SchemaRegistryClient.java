package io.kafkamv.connectors.registry;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.kafkamv.connectors.secret.SecretReferences;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A client of the Confluent Schema Registry REST API: {@code POST /subjects/{s}/versions},
 * {@code GET /schemas/ids/{id}}, {@code GET /subjects/{s}/versions/latest} and
 * {@code POST /compatibility/subjects/{s}/versions/latest}, with optional basic auth. Schemas by id
 * and ids by (subject, schema) are cached for good: the registry never changes them.
 */
public final class SchemaRegistryClient implements SchemaRegistry {

    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_MESSAGE = 200;

    private final String baseUrl;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Map<Integer, String> schemas = new ConcurrentHashMap<>();
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();

    /** The options that name a source's or sink's registry, and those of its basic auth. */
    public static final String URL_OPTION = "schema.registry";
    public static final String USERNAME_OPTION = "schema.registry.username";
    public static final String PASSWORD_OPTION = "schema.registry.password";

    /** One client per registry and user, shared by every source and sink that names it, with its caches. */
    private static final Map<String, SchemaRegistryClient> SHARED = new ConcurrentHashMap<>();

    /** The registry {@value #URL_OPTION} names, with basic auth when {@value #USERNAME_OPTION} is given. */
    public static SchemaRegistry fromOptions(Map<String, String> options) {
        String url = options.get(URL_OPTION);
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("Avro needs the option " + URL_OPTION);
        }
        String user = SecretReferences.resolve(USERNAME_OPTION, options.get(USERNAME_OPTION));
        String userInfo = user == null ? null
            : user + ":" + SecretReferences.resolve(PASSWORD_OPTION, options.getOrDefault(PASSWORD_OPTION, ""));
        return SHARED.computeIfAbsent(url + "\u0000" + userInfo, key -> new SchemaRegistryClient(url, userInfo));
    }

    /**
     * @param baseUrl  e.g. {@code http://registry:8081}
     * @param userInfo {@code user:password} for basic auth, or null
     */
    public SchemaRegistryClient(String baseUrl, String userInfo) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.authorization = userInfo == null || userInfo.isBlank() ? null
            : "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public int register(String subject, String schema) {
        return ids.computeIfAbsent(subject + "\u0000" + schema, key -> {
            JsonNode answer = send("POST", "/subjects/" + encode(subject) + "/versions", body(schema));
            int id = answer.path("id").asInt();
            schemas.putIfAbsent(id, schema);
            return id;
        });
    }

    @Override
    public String schemaById(int id) {
        return schemas.computeIfAbsent(id, key -> send("GET", "/schemas/ids/" + id, null).path("schema").asText());
    }

    @Override
    public Registered latest(String subject) {
        JsonNode answer = send("GET", "/subjects/" + encode(subject) + "/versions/latest", null);
        Registered latest = new Registered(answer.path("id").asInt(), answer.path("version").asInt(),
            answer.path("schema").asText());
        schemas.putIfAbsent(latest.id(), latest.schema());
        return latest;
    }

    @Override
    public boolean isCompatible(String subject, String schema) {
        return send("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest", body(schema))
            .path("is_compatible").asBoolean(false);
    }

    private static String body(String schema) {
        return JSON.createObjectNode().put("schema", schema).toString();
    }

    private JsonNode send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(Duration.ofSeconds(30))
            .header("Accept", CONTENT_TYPE)
            .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", CONTENT_TYPE);
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode answer = json(response.body());
            String answered = "schema registry " + baseUrl + " answered " + method + " " + path + " with "
                + response.statusCode();
            if (response.statusCode() / 100 != 2) {
                throw new SchemaRegistryException(answered + registryMessage(answer), response.statusCode(), null);
            }
            if (answer == null) {
                throw new SchemaRegistryException(answered + " and a body that is not JSON: is it a Schema Registry?",
                    response.statusCode(), null);
            }
            return answer;
        } catch (IOException e) {
            throw new SchemaRegistryException("cannot reach schema registry " + baseUrl + ": " + e.getMessage(), 0, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException("interrupted while calling schema registry " + baseUrl, 0, e);
        }
    }

    /** The body as JSON; null when it is not JSON. */
    private static JsonNode json(String body) {
        if (body.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(body);
        } catch (IOException notJson) {
            return null;
        }
    }

    /**
     * The registry's own error message, {@code {"error_code": ..., "message": "..."}}, cut short. Nothing else of
     * a body is repeated: the URL is the user's, and whatever else answers there must not be read through our errors.
     */
    private static String registryMessage(JsonNode answer) {
        if (answer == null || !answer.path("message").isTextual()) {
            return "";
        }
        String message = answer.path("message").asText();
        return ": " + (message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + "...");
    }

    private static String encode(String subject) {
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
