package io.kafkamv.service.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class JobsApiTimeoutTest {

    @Test
    void aWaitIsSecondsOrMillisecondsUpToTenMinutes() {
        assertThat(JobsApi.timeout(null)).isEqualTo(Duration.ofSeconds(60));
        assertThat(JobsApi.timeout("30")).isEqualTo(Duration.ofSeconds(30));
        assertThat(JobsApi.timeout("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(JobsApi.timeout("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(JobsApi.timeout("600s")).isEqualTo(JobsApi.MAX_WAIT);
        assertThatThrownBy(() -> JobsApi.timeout("601s")).hasMessageContaining("between 0 and 10 minutes");
        assertThatThrownBy(() -> JobsApi.timeout("soon")).hasMessageContaining("not soon");
    }
}
