package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;

import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class LocalStartProblemsTest {

    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    @Test
    void aFailedStartIsTriedAgainLaterEachTimeUpToAMinute() {
        LocalStartProblems problems = new LocalStartProblems();
        long now = 0;
        assertThat(problems.due(7, now)).isTrue();

        assertThat(problems.failed(7, new TimeoutException("no controller"), now)).isEqualTo(Duration.ofSeconds(1));
        assertThat(problems.due(7, now)).isFalse();
        assertThat(problems.due(7, now + SECOND)).isTrue();
        assertThat(problems.failed(7, new TimeoutException("no controller"), now)).isEqualTo(Duration.ofSeconds(2));
        for (int i = 0; i < 10; i++) {
            problems.failed(7, new TimeoutException("no controller"), now);
        }
        assertThat(problems.failed(7, new TimeoutException("no controller"), now)).isEqualTo(Duration.ofMinutes(1));
        assertThat(problems.describe(7, now)).hasValue("not running on this instance, attempt 13, next in 60 s: no controller");

        problems.running(7, now + SECOND);
        assertThat(problems.describe(7, now)).as("running again: not shown").isEmpty();
        assertThat(problems.failed(7, new TimeoutException("no controller"), now + 2 * SECOND))
            .as("failing soon after it ran again is the same problem").isEqualTo(Duration.ofMinutes(1));

        long later = now + 2 * SECOND + LocalStartProblems.STABLE.toNanos();
        problems.running(7, later);
        assertThat(problems.describe(7, later)).isEmpty();
        assertThat(problems.failed(7, new TimeoutException("no controller"), later))
            .as("after running a while, a new problem starts again at a second").isEqualTo(Duration.ofSeconds(1));
        assertThat(problems.due(8, now)).as("other jobs are not held back").isTrue();
    }

    @Test
    void aJobThisInstanceCannotRunIsLeftToOthersAndLoggedOnce() {
        LocalStartProblems problems = new LocalStartProblems();

        assertThat(problems.leaveToOthers(7, "plan version 5 is newer than this kafka-mv understands (4)")).isTrue();
        assertThat(problems.leaveToOthers(7, "plan version 5 is newer than this kafka-mv understands (4)")).isFalse();
        assertThat(problems.due(7, Long.MAX_VALUE)).isFalse();
        assertThat(problems.describe(7, 0))
            .hasValue("this instance cannot run it (plan version 5 is newer than this kafka-mv understands (4))");

        problems.retainOnly(Set.of());
        assertThat(problems.due(7, 0)).isTrue();
    }

    @Test
    void theReasonNamesTheInnermostCause() {
        LocalStartProblems problems = new LocalStartProblems();
        problems.failed(7, new IllegalStateException("Kafka Streams cannot start",
            new java.io.IOException("/data/streams is not a directory")), 0);

        assertThat(problems.describe(7, 0)).hasValueSatisfying(text ->
            assertThat(text).endsWith("Kafka Streams cannot start: /data/streams is not a directory"));
    }
}
