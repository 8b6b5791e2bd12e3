package io.kafkamv.it.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1NetworkPolicy;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart, linted and rendered by Helm itself (embedded through helm-java), every object checked
 * against the Kubernetes API models, and the values that matter asserted.
 */
class HelmChartTest {

    private static final Path CHART = Paths.get("../helm/kafka-mv").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private static KubernetesApiTestDouble kubernetes;

    @TempDir
    Path workDir;

    @BeforeAll
    static void startKubernetesApi() throws IOException {
        kubernetes = KubernetesApiTestDouble.start();
    }

    @AfterAll
    static void stopKubernetesApi() {
        kubernetes.close();
    }

    @Test
    void theChartLintsStrictly() {
        LintResult lint = new Helm(CHART).lint().strict().call();

        assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
    }

    @Test
    void defaultValuesGiveOneInstanceWithStateOnAVolumeAndBothPorts() throws IOException {
        Rendered rendered = render(null);

        V1StatefulSet statefulSet = rendered.one(V1StatefulSet.class, "StatefulSet");
        V1Container container = statefulSet.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(statefulSet.getSpec().getReplicas()).isEqualTo(1);
        assertThat(statefulSet.getSpec().getServiceName()).isEqualTo("kmv-kafka-mv-headless");
        assertThat(container.getPorts()).extracting(port -> port.getName() + ":" + port.getContainerPort())
            .containsExactly("pg:4566", "http:8088");
        assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
        assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
        assertThat(container.getStartupProbe()).isNotNull();
        assertThat(statefulSet.getSpec().getVolumeClaimTemplates()).singleElement().satisfies(claim -> {
            assertThat(claim.getMetadata().getName()).isEqualTo("data");
            assertThat(claim.getSpec().getResources().getRequests().get("storage").toSuffixedString()).isEqualTo("10Gi");
        });
        assertThat(env(container, "KAFKA_MV_ADVERTISED_HOST"))
            .contains("$(POD_NAME).kmv-kafka-mv-headless.apps.svc.cluster.local");
        V1ConfigMap config = rendered.one(V1ConfigMap.class, "ConfigMap");
        assertThat(config.getData()).containsEntry("KAFKA_MV_BOOTSTRAP_SERVERS", "kafka:9092")
            .containsEntry("KAFKA_MV_BIND_ADDRESS", "0.0.0.0").containsEntry("KAFKA_MV_DATA_DIR", "/data");
        List<V1Service> services = rendered.all(V1Service.class, "Service");
        assertThat(services).extracting(service -> service.getMetadata().getName())
            .containsExactlyInAnyOrder("kmv-kafka-mv", "kmv-kafka-mv-headless");
        assertThat(services).filteredOn(service -> "None".equals(service.getSpec().getClusterIP()))
            .singleElement().satisfies(headless -> assertThat(headless.getSpec().getPublishNotReadyAddresses()).isTrue());
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getVolumeMounts()).extracting(mount -> mount.getMountPath()).contains("/data", "/tmp");
        assertThat(config.getData().get("KAFKA_MV_JAVA_OPTS")).as("heap from the container limit")
            .contains("MaxRAMPercentage");
        assertThat(container.getResources().getLimits()).containsKey("memory");
        assertThat(rendered.one(V1PodDisruptionBudget.class, "PodDisruptionBudget").getSpec().getMaxUnavailable()
            .getIntValue()).isEqualTo(1);
        assertThat(rendered.kinds()).doesNotContain("ServiceMonitor", "NetworkPolicy");
        // Passwords and tokens by default, from a Secret the chart generates.
        assertThat(env(container, "KAFKA_MV_PG_USERS_FILE")).contains("/etc/kafka-mv/users/users");
        assertThat(env(container, "KAFKA_MV_REST_TOKENS_FILE")).contains("/etc/kafka-mv/rest/tokens");
        assertThat(statefulSet.getSpec().getTemplate().getSpec().getVolumes())
            .filteredOn(volume -> volume.getSecret() != null)
            .extracting(volume -> volume.getSecret().getSecretName())
            .containsExactly("kmv-kafka-mv-auth", "kmv-kafka-mv-auth");
        V1Secret auth = rendered.one(V1Secret.class, "Secret");
        assertThat(auth.getMetadata().getName()).isEqualTo("kmv-kafka-mv-auth");
        String password = auth.getStringData().get("password");
        String token = auth.getStringData().get("token");
        assertThat(password).hasSize(24).isAlphanumeric();
        assertThat(token).hasSize(40).isAlphanumeric();
        assertThat(auth.getStringData()).containsEntry("users", "root:" + password).containsEntry("tokens", "admin:" + token);
        assertThat(render(null).one(V1Secret.class, "Secret").getStringData().get("password"))
            .as("a new password for each new install").isNotEqualTo(password);
    }

    @Test
    void anUpgradeKeepsThePasswordAndTokenTheInstallGenerated() throws IOException {
        kubernetes.putSecret("apps", "kmv-kafka-mv-auth", java.util.Map.of("password", "installedPassword",
            "token", "installedTokenOfFortyCharacters", "users", "root:installedPassword",
            "tokens", "admin:installedTokenOfFortyCharacters"));
        try {
            V1Secret auth = render(null).one(V1Secret.class, "Secret");

            assertThat(auth.getStringData()).containsEntry("users", "root:installedPassword")
                .containsEntry("tokens", "admin:installedTokenOfFortyCharacters");
        } finally {
            kubernetes.removeSecret("apps", "kmv-kafka-mv-auth");
        }
    }

    @Test
    void trustIsAnExplicitChoiceThatTheNotesWarnAbout() throws IOException {
        Rendered rendered = render("auth:\n  mode: trust\n");

        V1Container container = rendered.one(V1StatefulSet.class, "StatefulSet").getSpec().getTemplate().getSpec()
            .getContainers().get(0);
        assertThat(env(container, "KAFKA_MV_PG_USERS_FILE")).isEmpty();
        assertThat(env(container, "KAFKA_MV_REST_TOKENS_FILE")).isEmpty();
        assertThat(rendered.kinds()).doesNotContain("Secret");
        assertThatThrownBy(() -> render("auth:\n  mode: none\n")).hasMessageContaining("mode");
    }

    @Test
    void givenSecretsReplaceTheGeneratedOneAndAMonitorScrapesWithItsToken() throws IOException {
        Rendered own = render("pgUsersSecret: my-users\nrestTokensSecret: my-tokens\n");
        assertThat(own.kinds()).doesNotContain("Secret");

        Rendered monitored = render("serviceMonitor:\n  enabled: true\n");
        JsonNode monitor = monitored.raw("ServiceMonitor").orElseThrow();
        assertThat(monitor.at("/spec/endpoints/0/bearerTokenSecret/name").asText()).isEqualTo("kmv-kafka-mv-auth");
        assertThat(monitor.at("/spec/endpoints/0/bearerTokenSecret/key").asText()).isEqualTo("token");
    }

    @Test
    void aScaledOutInstallOnASaslClusterWithMonitoring() throws IOException {
        Rendered rendered = render("""
            replicaCount: 3
            kafka:
              bootstrapServers: broker-0.kafka:9093,broker-1.kafka:9093,broker-2.kafka:9093
              clientPropertiesSecret: kafka-mv-sasl
            persistence:
              size: 50Gi
              storageClass: fast-ssd
            credentialsSecret: kafka-mv-credentials
            pgUsersSecret: kafka-mv-users
            restTokensSecret: kafka-mv-rest-tokens
            pgTls:
              secret: kafka-mv-pg-tls
              required: true
            networkPolicy:
              enabled: true
              from:
                - namespaceSelector:
                    matchLabels:
                      team: analytics
            serviceMonitor:
              enabled: true
              labels:
                release: prometheus
              bearerTokenSecret:
                name: kafka-mv-scraper
                key: token
            """);

        V1StatefulSet statefulSet = rendered.one(V1StatefulSet.class, "StatefulSet");
        V1Container container = statefulSet.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(statefulSet.getSpec().getReplicas()).isEqualTo(3);
        assertThat(env(container, "KAFKA_MV_KAFKA_CONFIG")).contains("/etc/kafka-mv/kafka/client.properties");
        assertThat(statefulSet.getSpec().getTemplate().getSpec().getVolumes())
            .filteredOn(volume -> volume.getSecret() != null)
            .extracting(volume -> volume.getSecret().getSecretName())
            .containsExactlyInAnyOrder("kafka-mv-sasl", "kafka-mv-users", "kafka-mv-rest-tokens", "kafka-mv-pg-tls");
        assertThat(env(container, "KAFKA_MV_PG_TLS_CERT")).contains("/etc/kafka-mv/pg-tls/tls.crt");
        assertThat(env(container, "KAFKA_MV_PG_TLS_KEY")).contains("/etc/kafka-mv/pg-tls/tls.key");
        assertThat(env(container, "KAFKA_MV_PG_TLS_REQUIRED")).contains("true");
        assertThat(env(container, "KAFKA_MV_PG_USERS_FILE")).contains("/etc/kafka-mv/users/users");
        assertThat(env(container, "KAFKA_MV_REST_TOKENS_FILE")).contains("/etc/kafka-mv/rest/tokens");
        assertThat(container.getVolumeMounts()).extracting(mount -> mount.getMountPath())
            .contains("/etc/kafka-mv/kafka", "/etc/kafka-mv/users", "/etc/kafka-mv/rest", "/etc/kafka-mv/pg-tls");
        assertThat(statefulSet.getSpec().getVolumeClaimTemplates().get(0).getSpec().getStorageClassName())
            .isEqualTo("fast-ssd");
        assertThat(rendered.one(V1ConfigMap.class, "ConfigMap").getData())
            .containsEntry("KAFKA_MV_BOOTSTRAP_SERVERS", "broker-0.kafka:9093,broker-1.kafka:9093,broker-2.kafka:9093");
        assertThat(container.getEnvFrom()).filteredOn(source -> source.getSecretRef() != null)
            .singleElement().satisfies(source -> assertThat(source.getSecretRef().getName()).isEqualTo("kafka-mv-credentials"));
        V1NetworkPolicy policy = rendered.one(V1NetworkPolicy.class, "NetworkPolicy");
        assertThat(policy.getSpec().getIngress().get(0).getFrom().get(0).getNamespaceSelector().getMatchLabels())
            .containsEntry("team", "analytics");
        JsonNode monitor = rendered.raw("ServiceMonitor").orElseThrow();
        assertThat(monitor.at("/metadata/labels/release").asText()).isEqualTo("prometheus");
        assertThat(monitor.at("/spec/endpoints/0/path").asText()).isEqualTo("/metrics");
        assertThat(monitor.at("/spec/endpoints/0/bearerTokenSecret/name").asText()).isEqualTo("kafka-mv-scraper");
        assertThat(monitor.at("/spec/selector/matchLabels/app.kubernetes.io~1component").asText()).isEqualTo("instances");
    }

    @Test
    void theModelsRejectFieldsKubernetesDoesNotHave() {
        // What makes reading the rendered objects with the models a validation.
        assertThatThrownBy(() -> V1StatefulSet.fromJson(
            "{\"apiVersion\": \"apps/v1\", \"kind\": \"StatefulSet\", \"spec\": {\"replica\": 3}}"))
            .hasMessageContaining("replica");
    }

    @Test
    void badValuesAreRejectedByTheSchema() {
        assertThatThrownBy(() -> render("replicas: 3\n")).hasMessageContaining("replicas")
            .hasMessageContaining("is not allowed");
        assertThatThrownBy(() -> render("replicaCount: three\n")).hasMessageContaining("replicaCount");
        assertThatThrownBy(() -> render("kafka:\n  bootstrapServers: not a list of brokers\n"))
            .hasMessageContaining("bootstrapServers");
    }

    private Rendered render(String values) throws IOException {
        var template = new Helm(CHART).template().withName("kmv").withNamespace("apps");
        if (values != null) {
            Path file = Files.writeString(workDir.resolve("values-" + System.nanoTime() + ".yaml"), values);
            template = template.withValuesFile(file);
        }
        List<JsonNode> objects = new ArrayList<>();
        try (var parser = new YAMLFactory().createParser(template.call())) {
            new YAMLMapper().readValues(parser, JsonNode.class).forEachRemaining(node -> {
                if (node != null && !node.isNull() && !node.isEmpty()) {
                    objects.add(node);
                }
            });
        }
        return new Rendered(objects);
    }

    private static Optional<String> env(V1Container container, String name) {
        return container.getEnv().stream().filter(variable -> variable.getName().equals(name))
            .map(V1EnvVar::getValue).findFirst();
    }

    /** The rendered objects; typed ones are read with the Kubernetes models, which reject unknown fields. */
    private record Rendered(List<JsonNode> objects) {

        List<String> kinds() {
            return objects.stream().map(object -> object.path("kind").asText()).toList();
        }

        Optional<JsonNode> raw(String kind) {
            return objects.stream().filter(object -> kind.equals(object.path("kind").asText())).findFirst();
        }

        <T> T one(Class<T> type, String kind) {
            List<T> all = all(type, kind);
            assertThat(all).as("one %s", kind).hasSize(1);
            return all.get(0);
        }

        <T> List<T> all(Class<T> type, String kind) {
            List<T> typed = new ArrayList<>();
            for (JsonNode object : objects) {
                if (kind.equals(object.path("kind").asText())) {
                    try {
                        typed.add(type.cast(type.getMethod("fromJson", String.class)
                            .invoke(null, JSON.writeValueAsString(object))));
                    } catch (ReflectiveOperationException | IOException e) {
                        throw new AssertionError(kind + " is not a valid Kubernetes object: " + e, e);
                    }
                }
            }
            return typed;
        }
    }
}
