package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import io.kafkamv.jobstore.LastHeard;
import org.junit.jupiter.api.Test;

class ClusterHydrationTest {

    private static final Duration SILENCE = Duration.ofSeconds(30);
    private static final long NOW = Duration.ofMinutes(10).toNanos();

    @Test
    void aJobIsHydratedOnlyOnceEveryLiveInstanceSaysSo() {
        Map<String, LastHeard> heard = Map.of(
            "here", new LastHeard(false, NOW, Set.of(9L)),
            "restoring", new LastHeard(false, NOW - 1_000, Set.of(9L)),
            "restored", new LastHeard(false, NOW - 1_000, Set.of(8L, 9L)));

        assertThat(ClusterHydration.hydrated(9, true, "here", heard, NOW, SILENCE)).isTrue();
        assertThat(ClusterHydration.hydrated(8, true, "here", heard, NOW, SILENCE))
            .as("one instance still restoring it").isFalse();
        assertThat(ClusterHydration.hydrated(9, false, "here", heard, NOW, SILENCE))
            .as("this instance still restoring it, whatever its own last heartbeat said").isFalse();
    }

    @Test
    void instancesGoneOrOfAnOlderVersionDoNotHoldItBack() {
        Map<String, LastHeard> heard = Map.of(
            "stopped", new LastHeard(true, NOW, Set.of()),
            "silent", new LastHeard(false, NOW - SILENCE.toNanos() - 1, Set.of()),
            "older", new LastHeard(false, NOW, null));

        assertThat(ClusterHydration.hydrated(7, true, "here", heard, NOW, SILENCE)).isTrue();
    }
}
