package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.connectors.registry.SchemaRegistryException;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class RegistryOutageRetryTest {

    @Test
    void waitsLongerDuringOneOutageUpToHalfAMinuteAndStartsOverAfterAQuietSpell() {
        RegistryOutageRetry retry = new RegistryOutageRetry();
        List<Long> delays = new ArrayList<>();
        long now = 0;
        for (int attempt = 0; attempt < 7; attempt++) {
            Duration delay = retry.next(now);
            delays.add(delay.toSeconds());
            now += delay.toNanos();
        }
        assertThat(delays).containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L);
        assertThat(retry.next(now + Duration.ofMinutes(6).toNanos())).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void onlyARegistryThatMayAnswerLaterIsAnOutage() {
        assertThat(RegistryOutageRetry.outage(new StreamsException(new SchemaRegistryException("down", 503, null))))
            .isPresent();
        assertThat(RegistryOutageRetry.outage(new StreamsException(new SchemaRegistryException("unreachable", 0, null))))
            .isPresent();
        assertThat(RegistryOutageRetry.outage(new StreamsException(new SchemaRegistryException("incompatible", 409, null))))
            .isEmpty();
        assertThat(RegistryOutageRetry.outage(new StreamsException(new IllegalStateException("bug")))).isEmpty();
    }
}
