package io.kafkamv.connectors.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SchemaRegistryClientTest {

    static final String ORDER_V1 = "{\"type\": \"record\", \"name\": \"Order\", \"namespace\": \"shop\", \"fields\": ["
        + "{\"name\": \"id\", \"type\": \"long\"}, {\"name\": \"amount\", \"type\": \"double\"}]}";
    static final String ORDER_V2 = "{\"type\": \"record\", \"name\": \"Order\", \"namespace\": \"shop\", \"fields\": ["
        + "{\"name\": \"id\", \"type\": \"long\"}, {\"name\": \"amount\", \"type\": \"double\"},"
        + "{\"name\": \"note\", \"type\": [\"null\", \"string\"], \"default\": null}]}";
    static final String ORDER_BROKEN = "{\"type\": \"record\", \"name\": \"Order\", \"namespace\": \"shop\", \"fields\": ["
        + "{\"name\": \"id\", \"type\": \"long\"}, {\"name\": \"customer\", \"type\": \"string\"}]}";

    @Test
    void registersLooksUpAndChecksCompatibility() throws Exception {
        try (SchemaRegistryServerTestDouble server = SchemaRegistryServerTestDouble.start()) {
            SchemaRegistry registry = new SchemaRegistryClient(server.url(), null);
            String subject = SubjectNameStrategy.TOPIC_NAME.subject("orders", "shop.Order", false);

            int v1 = registry.register(subject, ORDER_V1);
            int again = registry.register(subject, ORDER_V1);
            assertThat(registry.isCompatible(subject, ORDER_V2)).isTrue();
            assertThat(registry.isCompatible(subject, ORDER_BROKEN)).isFalse();
            int v2 = registry.register(subject, ORDER_V2);

            assertThat(subject).isEqualTo("orders-value");
            assertThat(again).isEqualTo(v1);
            assertThat(v2).isNotEqualTo(v1);
            assertThat(registry.latest(subject)).satisfies(latest -> {
                assertThat(latest.id()).isEqualTo(v2);
                assertThat(latest.version()).isEqualTo(2);
            });
            assertThat(new SchemaRegistryClient(server.url(), null).schemaById(v1)).contains("\"amount\"")
                .doesNotContain("note");
            assertThatThrownBy(() -> registry.register(subject, ORDER_BROKEN))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> assertThat(e.status()).isEqualTo(409))
                .hasMessageContaining("incompatible");
            assertThatThrownBy(() -> registry.latest("nope-value")).hasMessageContaining("Subject 'nope-value' not found");
        }
    }

    /** The registry URL is the user's: a service that is no registry must not be read through our errors. */
    @Test
    void whatAnotherServiceAnswersIsNotRepeated() throws Exception {
        com.sun.net.httpserver.HttpServer other = com.sun.net.httpserver.HttpServer.create(
            new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        other.createContext("/", exchange -> {
            boolean html = exchange.getRequestURI().getPath().startsWith("/schemas");
            // A cloud metadata service answers JSON, an admin page HTML.
            byte[] page = (html ? "<html>internal admin page: db password hunter2</html>"
                : "{\"AccessKeyId\": \"hunter2\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(html ? 200 : 403, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        other.start();
        try {
            String url = "http://127.0.0.1:" + other.getAddress().getPort();
            assertThatThrownBy(() -> new SchemaRegistryClient(url, null).latest("a-value"))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> assertThat(e.status()).isEqualTo(403))
                .hasMessageEndingWith("with 403").hasMessageNotContaining("hunter2");
            assertThatThrownBy(() -> new SchemaRegistryClient(url, null).schemaById(1))
                .hasMessageContaining("a body that is not JSON").hasMessageNotContaining("hunter2");
        } finally {
            other.stop(0);
        }
    }

    @Test
    void recordNameStrategyNamesTheSubjectAfterTheRecord() {
        assertThat(SubjectNameStrategy.of("record").subject("orders", "shop.Order", false)).isEqualTo("shop.Order");
        assertThat(SubjectNameStrategy.of("TopicNameStrategy").subject("orders", "shop.Order", true))
            .isEqualTo("orders-key");
    }

    @Test
    void basicAuthIsSentAndRequired() throws Exception {
        try (SchemaRegistryServerTestDouble server = SchemaRegistryServerTestDouble.startWithBasicAuth("kmv:secret")) {
            assertThat(new SchemaRegistryClient(server.url(), "kmv:secret").register("a-value", ORDER_V1)).isPositive();
            assertThatThrownBy(() -> new SchemaRegistryClient(server.url(), "kmv:wrong").latest("a-value"))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> assertThat(e.status()).isEqualTo(401));
        }
    }
}
