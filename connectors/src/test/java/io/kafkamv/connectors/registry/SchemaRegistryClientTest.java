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
