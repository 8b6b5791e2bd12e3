package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class StallWatchTest {

    private static final long SECOND = 1_000_000_000L;
    private static final HangingTransactions.Open LOST = new HangingTransactions.Open(
        new TopicPartition("kmv-job-1-rows-changelog", 2), 2, 86, 170980, 1, "t-1 Empty epoch 88", false);
    private static final HangingTransactions.Open ENDING = new HangingTransactions.Open(
        new TopicPartition("kmv-job-1-rows-changelog", 0), 5, 3, 10, 1, "t-2 Ongoing epoch 3", true);

    private final StallWatch watch = new StallWatch(Duration.ofSeconds(60));
    private final List<Long> asked = new ArrayList<>();

    @Test
    void aJobThatMovesIsNeverStalledAndNobodyAsksWhatIsOpen() {
        for (long second = 0; second <= 300; second += 10) {
            assertThat(watch.look(1, Map.of("t:0", second), second * SECOND, open(second, List.of(LOST))))
                .isInstanceOf(StallWatch.Moving.class);
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void aJobStandingStillIsStalledAfterTheLimitWithWhatIsOpenThenAndItsWatchStartsOver() {
        Map<String, Long> position = Map.of("t:0", 100L);
        assertThat(watch.look(1, position, 0, open(0, List.of()))).isInstanceOf(StallWatch.Moving.class);
        assertThat(watch.look(1, position, 31 * SECOND, open(31, List.of()))).isInstanceOf(StallWatch.Moving.class);
        assertThat(watch.look(1, position, 45 * SECOND, open(45, List.of()))).isInstanceOf(StallWatch.Moving.class);
        assertThat(watch.look(1, position, 62 * SECOND, open(62, List.of(ENDING))))
            .isEqualTo(new StallWatch.Stalled(List.of(ENDING)));
        assertThat(asked).as("asked halfway and at the limit").containsExactly(31L, 62L);

        assertThat(watch.look(1, position, 63 * SECOND, open(63, List.of()))).isInstanceOf(StallWatch.Moving.class);
    }

    @Test
    void aJobHeldByATransactionOpenHalfwayAndAtTheLimitThatItsCoordinatorIsNotEndingIsHeld() {
        Map<String, Long> position = Map.of("rows/kmv-job-1-rows-changelog-2", 2546L);
        watch.look(1, position, 0, open(0, List.of()));
        watch.look(1, position, 31 * SECOND, open(31, List.of(LOST, ENDING)));

        assertThat(watch.look(1, position, 62 * SECOND, open(62, List.of(LOST, ENDING))))
            .isEqualTo(new StallWatch.Held(List.of(LOST)));
    }

    @Test
    void aTransactionOpenOnlyAtTheLimitIsNotHangingYet() {
        Map<String, Long> position = Map.of("t:0", 100L);
        watch.look(1, position, 0, open(0, List.of()));
        watch.look(1, position, 31 * SECOND, open(31, List.of()));

        assertThat(watch.look(1, position, 62 * SECOND, open(62, List.of(LOST))))
            .isEqualTo(new StallWatch.Stalled(List.of(LOST)));
    }

    @Test
    void aLateHalfwayLookIsFollowedByHalfTheLimitBeforeAVerdict() {
        Map<String, Long> position = Map.of("t:0", 100L);
        watch.look(1, position, 0, open(0, List.of()));
        watch.look(1, position, 59 * SECOND, open(59, List.of(LOST)));

        assertThat(watch.look(1, position, 61 * SECOND, open(61, List.of(LOST)))).isInstanceOf(StallWatch.Moving.class);
        assertThat(watch.look(1, position, 90 * SECOND, open(90, List.of(LOST))))
            .isEqualTo(new StallWatch.Held(List.of(LOST)));
        assertThat(asked).containsExactly(59L, 90L);
    }

    @Test
    void aJobThatMovesAfterTheHalfwayLookStartsItsWatchOver() {
        watch.look(1, Map.of("t:0", 100L), 0, open(0, List.of()));
        watch.look(1, Map.of("t:0", 100L), 31 * SECOND, open(31, List.of(LOST)));
        watch.look(1, Map.of("t:0", 101L), 40 * SECOND, open(40, List.of(LOST)));

        assertThat(watch.look(1, Map.of("t:0", 101L), 61 * SECOND, open(61, List.of(LOST))))
            .isInstanceOf(StallWatch.Moving.class);
        assertThat(asked).containsExactly(31L);
    }

    @Test
    void onlyTheJobsRetainedAreWatched() {
        Map<String, Long> position = Map.of("t:0", 100L);
        watch.look(1, position, 0, open(0, List.of()));
        watch.look(2, position, 0, open(0, List.of()));
        watch.retainOnly(id -> id == 2);
        watch.look(1, position, 31 * SECOND, open(31, List.of()));
        watch.look(2, position, 31 * SECOND, open(31, List.of()));

        assertThat(asked).as("job 1's watch started over; job 2's is halfway").containsExactly(31L);
    }

    @Test
    void aForgottenJobStartsItsWatchOver() {
        Map<String, Long> position = Map.of("t:0", 100L);
        watch.look(1, position, 0, open(0, List.of()));
        watch.forget(1);
        assertThat(watch.look(1, position, 61 * SECOND, open(61, List.of()))).isInstanceOf(StallWatch.Moving.class);
        assertThat(asked).isEmpty();
    }

    private java.util.function.Supplier<List<HangingTransactions.Open>> open(long second,
                                                                              List<HangingTransactions.Open> open) {
        return () -> {
            asked.add(second);
            return open;
        };
    }
}
