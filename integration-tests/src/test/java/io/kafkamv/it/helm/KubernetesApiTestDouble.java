package io.kafkamv.it.helm;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Stands in for a Kubernetes API server, which cannot run here, for Helm's {@code lookup} of Secrets while the
 * chart renders: it answers the discovery of the core API and a GET of a Secret, from the Secrets a test puts in.
 * Helm finds it through the kubeconfig file that {@code KUBECONFIG} names (set for the tests in the pom).
 */
final class KubernetesApiTestDouble implements AutoCloseable {

    private final HttpServer server;
    private final Map<String, Map<String, String>> secrets = new ConcurrentHashMap<>();

    private KubernetesApiTestDouble(HttpServer server) {
        this.server = server;
    }

    /** Starts on a free port and points the kubeconfig file of {@code KUBECONFIG} at it. */
    static KubernetesApiTestDouble start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        KubernetesApiTestDouble api = new KubernetesApiTestDouble(server);
        server.createContext("/", api::answer);
        server.start();
        Path kubeconfig = Path.of(System.getenv("KUBECONFIG"));
        Files.createDirectories(kubeconfig.getParent());
        Files.writeString(kubeconfig, """
            apiVersion: v1
            kind: Config
            clusters:
              - name: test-double
                cluster:
                  server: http://127.0.0.1:%d
            contexts:
              - name: test-double
                context:
                  cluster: test-double
                  user: test-double
            current-context: test-double
            users:
              - name: test-double
                user: {}
            """.formatted(server.getAddress().getPort()));
        return api;
    }

    /** A Secret that exists in the namespace, with its data as plain text. */
    void putSecret(String namespace, String name, Map<String, String> data) {
        secrets.put(namespace + "/" + name, Map.copyOf(data));
    }

    void removeSecret(String namespace, String name) {
        secrets.remove(namespace + "/" + name);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/api/v1")) {
            respond(exchange, 200, """
                {"kind": "APIResourceList", "groupVersion": "v1", "resources": [
                  {"name": "secrets", "singularName": "secret", "namespaced": true, "kind": "Secret",
                   "verbs": ["get", "list"]}]}""");
            return;
        }
        String[] parts = path.split("/");
        // /api/v1/namespaces/<namespace>/secrets/<name>
        if (parts.length == 7 && parts[3].equals("namespaces") && parts[5].equals("secrets")) {
            Map<String, String> data = secrets.get(parts[4] + "/" + parts[6]);
            if (data != null) {
                StringBuilder encoded = new StringBuilder();
                data.forEach((key, value) -> encoded.append(encoded.isEmpty() ? "" : ", ").append('"').append(key)
                    .append("\": \"").append(Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)))
                    .append('"'));
                respond(exchange, 200, """
                    {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "%s", "namespace": "%s"},
                     "type": "Opaque", "data": {%s}}""".formatted(parts[6], parts[4], encoded));
                return;
            }
        }
        respond(exchange, 404, """
            {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404,
             "message": "not found"}""");
    }

    private static void respond(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
