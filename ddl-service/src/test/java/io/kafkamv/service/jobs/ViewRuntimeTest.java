package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class ViewRuntimeTest {

    @Test
    void aViewsLagIsItsMainConsumersNotItsRestoreOrLookupTableCopysConsumers() {
        String client = "kmv-job-1003-91d2a020-3314-4f92-8c98-ce05b0f00241";

        assertThat(ViewRuntime.isInputLag(lag(client + "-StreamThread-1-consumer"))).isTrue();
        assertThat(ViewRuntime.isInputLag(lag(client + "-StreamThread-1-restore-consumer"))).isFalse();
        assertThat(ViewRuntime.isInputLag(lag(client + "-global-consumer"))).isFalse();
        assertThat(ViewRuntime.isInputLag(new MetricName("records-lead", "consumer-fetch-manager-metrics", "",
            Map.of("client-id", client + "-StreamThread-1-consumer")))).isFalse();
    }

    private static MetricName lag(String clientId) {
        return new MetricName("records-lag", "consumer-fetch-manager-metrics", "", Map.of("client-id", clientId,
            "topic", "kmv-table-t-1001", "partition", "0"));
    }
}
