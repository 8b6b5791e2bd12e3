package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class BackfillProgressTest {

    private static final Map<String, Long> START = Map.of("clicks:0", 100L, "clicks:1", 0L, "clicks:2", 0L);
    private static final Map<String, Long> TARGET = Map.of("clicks:0", 300L, "clicks:1", 200L, "clicks:2", 0L);

    @Test
    void progressCountsFromEachPartitionsStartAndNamesThePartitionsStillBehind() {
        BackfillProgress progress = BackfillProgress.of(START, TARGET, Map.of("clicks:0", 300L, "clicks:1", 50L));

        assertThat(progress.fraction()).isEqualTo(250.0 / 400);
        assertThat(progress.done()).isFalse();
        assertThat(progress.behind(TARGET)).as("a partition not committed yet counts from its start")
            .isEqualTo("clicks:1 at 50 of 200");
        assertThat(BackfillProgress.of(START, TARGET, Map.of()).behind(TARGET))
            .isEqualTo("clicks:0 at 100 of 300, clicks:1 at 0 of 200");
    }

    @Test
    void aBackfillAtItsTargetsIsDoneAndBehindNothing() {
        BackfillProgress progress = BackfillProgress.of(START, TARGET, Map.of("clicks:0", 350L, "clicks:1", 200L));

        assertThat(progress.done()).isTrue();
        assertThat(progress.fraction()).isEqualTo(1.0);
        assertThat(progress.behind(TARGET)).isEmpty();
    }
}
