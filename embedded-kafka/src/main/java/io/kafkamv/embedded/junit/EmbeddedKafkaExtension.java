package io.kafkamv.embedded.junit;

import io.kafkamv.embedded.EmbeddedKafkaCluster;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Runs a real Kafka cluster for the tests of one class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.singleNode();
 * }</pre>
 *
 * <p>The cluster starts before the first test of the class and stops after the last one.
 * Test methods may also take an {@link EmbeddedKafkaCluster} parameter.
 */
public final class EmbeddedKafkaExtension implements BeforeAllCallback, AfterAllCallback,
    ParameterResolver {

    private final EmbeddedKafkaCluster.Builder builder;
    private EmbeddedKafkaCluster cluster;

    private EmbeddedKafkaExtension(EmbeddedKafkaCluster.Builder builder) {
        this.builder = builder;
    }

    public static EmbeddedKafkaExtension singleNode() {
        return new EmbeddedKafkaExtension(EmbeddedKafkaCluster.builder().nodes(1));
    }

    /** Three nodes: replication factor 3 and {@code min.insync.replicas=2} by default. */
    public static EmbeddedKafkaExtension threeNodes() {
        return new EmbeddedKafkaExtension(EmbeddedKafkaCluster.builder().nodes(3)
            .brokerConfig("min.insync.replicas", "2"));
    }

    /** A broker setting for every node; call before the cluster starts. */
    public EmbeddedKafkaExtension withBrokerConfig(String key, String value) {
        builder.brokerConfig(key, value);
        return this;
    }

    public EmbeddedKafkaCluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("The Kafka cluster starts before the first test; "
                + "register the extension on a static field");
        }
        return cluster;
    }

    public String bootstrapServers() {
        return cluster().bootstrapServers();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = builder.build().start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == EmbeddedKafkaCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return cluster();
    }
}
