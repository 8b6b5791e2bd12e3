package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobClientMetersTest {

    @TempDir
    Path stateDir;

    @Test
    void bridgesTheThreadAndClientWideMetricsOfAJobWithItsTagsAndRemovesThemWhenClosed() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1"));
             KafkaStreams streams = UnstartedStreams.of(stateDir, new SharedAdminClientSupplier(admin))) {
            JobClientMeters meters = JobClientMeters.bind(streams::metrics, registry, Tags.of("job_id", "7", "object", "m"));

            Meter processRate = registry.find("kafka.stream.thread.process.rate").tag("object", "m").meter();
            assertThat(processRate).isNotNull();
            assertThat(processRate.getId().getTag("job_id")).isEqualTo("7");
            assertThat(processRate.getId().getTag("thread.id")).contains("StreamThread-1");
            assertThat(registry.find("kafka.stream.thread.process.total").functionCounter()).isNotNull();
            assertThat(registry.find("kafka.consumer.fetch.manager.records.lag.max").gauges()).isNotEmpty()
                .allSatisfy(gauge -> assertThat(gauge.getId().getTag("topic")).isNull());
            long bridged = registry.getMeters().size();
            long all = streams.metrics().size();
            assertThat(bridged).as("of %d metrics", all).isBetween(1L, all / 4);

            meters.close();
            assertThat(registry.getMeters()).isEmpty();
            meters.refresh();
            assertThat(registry.getMeters()).as("a refresh after the close").isEmpty();
        }
    }

    @Test
    void leavesOutWhatIsPerPartitionPerTaskPerStoreOrPerBroker() {
        assertThat(JobClientMeters.bridged(name("records-lag-max", "consumer-fetch-manager-metrics",
            Map.of("client-id", "c")))).isTrue();
        assertThat(JobClientMeters.bridged(name("records-lag-max", "consumer-fetch-manager-metrics",
            Map.of("client-id", "c", "topic", "t", "partition", "0")))).isFalse();
        assertThat(JobClientMeters.bridged(name("records-lag-max", "consumer-fetch-manager-metrics",
            Map.of("client-id", "c", "topic", "t")))).isFalse();
        assertThat(JobClientMeters.bridged(name("process-rate", "stream-task-metrics", Map.of("task-id", "0_1")))).isFalse();
        assertThat(JobClientMeters.bridged(name("put-rate", "stream-state-metrics", Map.of("task-id", "0_1")))).isFalse();
        assertThat(JobClientMeters.bridged(name("request-rate", "consumer-node-metrics", Map.of("node-id", "1")))).isFalse();
        assertThat(JobClientMeters.bridged(name("connection-count", "admin-client-metrics", Map.of()))).isFalse();
        assertThat(JobClientMeters.bridged(name("dead-letters-total", "stream-kafkamv-metrics",
            Map.of("thread-id", "t-StreamThread-1", "kafkamv-id", "dead-letters")))).isTrue();
    }

    @Test
    void followsAMetricMadeAgainUnderItsNameAndLeavesOutTheMetricsThatAreText() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MetricName processRate = name("process-rate", "stream-thread-metrics", Map.of("thread-id", "t-StreamThread-1"));
        MetricName version = name("version", "stream-metrics", Map.of("client-id", "t"));
        Map<MetricName, Metric> metrics = new java.util.HashMap<>();
        metrics.put(processRate, new Value(processRate, 5.0));
        metrics.put(version, new Value(version, "4.4.0"));
        try (JobClientMeters meters = JobClientMeters.bind(() -> metrics, registry, Tags.of("job_id", "7"))) {
            assertThat(registry.get("kafka.stream.thread.process.rate").gauge().value()).isEqualTo(5.0);
            assertThat(registry.find("kafka.stream.version").meter()).as("a text metric").isNull();

            // A thread replaced after a failure takes the index of the one it replaces: its metrics are new objects.
            metrics.put(processRate, new Value(processRate, 8.0));
            meters.refresh();
            assertThat(registry.get("kafka.stream.thread.process.rate").gauge().value()).isEqualTo(8.0);
            assertThat(registry.getMeters()).hasSize(1);
        }
    }

    /** A Kafka metric that holds one value: what a sensor's metric answers, without a sensor behind it. */
    private record Value(MetricName metricName, Object metricValue) implements Metric {
    }

    private static MetricName name(String name, String group, Map<String, String> tags) {
        return new MetricName(name, group, "", tags);
    }
}
