package io.kafkamv.connectors.registry;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * A test double of the Confluent Schema Registry: an in-process HTTP server implementing the
 * documented endpoints kafka-mv uses (register, schema by id, latest version, compatibility), with
 * BACKWARD compatibility, global ids shared by equal schemas, Confluent's error codes, and optional
 * basic auth. The real registry is not served by our Maven registry and cannot run here.
 */
public final class SchemaRegistryServerTestDouble implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern VERSIONS = Pattern.compile("/subjects/([^/]+)/versions");
    private static final Pattern LATEST = Pattern.compile("/subjects/([^/]+)/versions/latest");
    private static final Pattern BY_ID = Pattern.compile("/schemas/ids/(\\d+)");
    private static final Pattern COMPATIBILITY = Pattern.compile("/compatibility/subjects/([^/]+)/versions/latest");

    private final HttpServer server;
    private final String userInfo;
    private final Map<Integer, String> schemasById = new LinkedHashMap<>();
    private final Map<String, List<Integer>> subjects = new LinkedHashMap<>();
    private volatile boolean unavailable;
    private final java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();

    private SchemaRegistryServerTestDouble(String userInfo) throws IOException {
        this.userInfo = userInfo;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    public static SchemaRegistryServerTestDouble start() throws IOException {
        return new SchemaRegistryServerTestDouble(null);
    }

    /** A registry that requires basic auth with {@code user:password}. */
    public static SchemaRegistryServerTestDouble startWithBasicAuth(String userInfo) throws IOException {
        return new SchemaRegistryServerTestDouble(userInfo);
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** From now on every request is answered 503, as a registry that is down behind its load balancer answers. */
    public void makeUnavailable(boolean unavailable) {
        this.unavailable = unavailable;
    }

    /** How many requests were answered 503 while unavailable. */
    public int refusedRequests() {
        return refused.get();
    }

    private synchronized void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (unavailable) {
                refused.incrementAndGet();
                reply(exchange, 503, error(50301, "Service Unavailable"));
                return;
            }
            if (userInfo != null && !("Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8)))
                .equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                reply(exchange, 401, error(401, "Unauthorized"));
                return;
            }
            String path = exchange.getRequestURI().getRawPath();
            String method = exchange.getRequestMethod();
            Matcher matcher;
            if (method.equals("GET") && (matcher = BY_ID.matcher(path)).matches()) {
                String schema = schemasById.get(Integer.parseInt(matcher.group(1)));
                reply(exchange, schema == null ? 404 : 200, schema == null ? error(40403, "Schema not found")
                    : JSON.createObjectNode().put("schema", schema));
            } else if (method.equals("GET") && (matcher = LATEST.matcher(path)).matches()) {
                String subject = decode(matcher.group(1));
                List<Integer> versions = subjects.get(subject);
                if (versions == null) {
                    reply(exchange, 404, error(40401, "Subject '" + subject + "' not found."));
                    return;
                }
                int id = versions.get(versions.size() - 1);
                reply(exchange, 200, JSON.createObjectNode().put("subject", subject).put("version", versions.size())
                    .put("id", id).put("schema", schemasById.get(id)));
            } else if (method.equals("POST") && (matcher = VERSIONS.matcher(path)).matches()) {
                register(exchange, decode(matcher.group(1)), schemaOf(exchange.getRequestBody()));
            } else if (method.equals("POST") && (matcher = COMPATIBILITY.matcher(path)).matches()) {
                String subject = decode(matcher.group(1));
                reply(exchange, 200, JSON.createObjectNode().put("is_compatible",
                    compatible(subject, schemaOf(exchange.getRequestBody()))));
            } else {
                reply(exchange, 404, error(404, "HTTP 404 Not Found"));
            }
        } catch (RuntimeException e) {
            reply(exchange, 422, error(42201, "Invalid schema: " + e.getMessage()));
        }
    }

    private void register(HttpExchange exchange, String subject, String schema) throws IOException {
        String canonical = new Schema.Parser().parse(schema).toString();
        List<Integer> versions = subjects.computeIfAbsent(subject, key -> new ArrayList<>());
        for (int id : versions) {
            if (schemasById.get(id).equals(canonical)) {
                reply(exchange, 200, JSON.createObjectNode().put("id", id));
                return;
            }
        }
        if (!compatible(subject, schema)) {
            reply(exchange, 409, error(409, "Schema being registered is incompatible with an earlier schema for subject \""
                + subject + "\""));
            return;
        }
        int id = schemasById.entrySet().stream().filter(entry -> entry.getValue().equals(canonical))
            .map(Map.Entry::getKey).findFirst().orElse(schemasById.size() + 1);
        schemasById.put(id, canonical);
        versions.add(id);
        reply(exchange, 200, JSON.createObjectNode().put("id", id));
    }

    /** BACKWARD: a reader with the new schema can read what the latest one wrote. */
    private boolean compatible(String subject, String schema) {
        List<Integer> versions = subjects.get(subject);
        if (versions == null || versions.isEmpty()) {
            return true;
        }
        Schema latest = new Schema.Parser().parse(schemasById.get(versions.get(versions.size() - 1)));
        Schema candidate = new Schema.Parser().parse(schema);
        return SchemaCompatibility.checkReaderWriterCompatibility(candidate, latest).getType()
            == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
    }

    private static String schemaOf(InputStream body) throws IOException {
        JsonNode request = JSON.readTree(body);
        return request.path("schema").asText();
    }

    private static ObjectNode error(int code, String message) {
        return JSON.createObjectNode().put("error_code", code).put("message", message);
    }

    private static void reply(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static String decode(String part) {
        return URLDecoder.decode(part, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
