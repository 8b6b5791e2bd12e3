package io.kafkamv.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressFidelityTest {

    @Test
    void findsTheLargestStepABackwardStepAndTheLagAfterFullProgress() {
        ViewCreation creation = new ViewCreation("v", 1, 50, 5.0, List.of(new ProgressSample(200, 0.10),
            new ProgressSample(400, 0.45), new ProgressSample(600, 0.40), new ProgressSample(4500, 1.0)));

        ProgressFidelity fidelity = ProgressFidelity.of(creation);

        assertThat(fidelity.samples()).isEqualTo(4);
        assertThat(fidelity.monotonic()).isFalse();
        assertThat(fidelity.largestJumpPercent()).isCloseTo(60.0, within(1e-9));
        assertThat(fidelity.lagAfterFullSeconds()).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void countsTheStepFromTheLastSampleToDoneWhenTheViewAnsweredBeforeFullProgressWasSeen() {
        ViewCreation creation = new ViewCreation("v", 1, 50, 5.0, List.of(new ProgressSample(200, 0.2),
            new ProgressSample(400, 0.7)));

        ProgressFidelity fidelity = ProgressFidelity.of(creation);

        assertThat(fidelity.monotonic()).isTrue();
        assertThat(fidelity.largestJumpPercent()).isCloseTo(50.0, within(1e-9));
        assertThat(fidelity.lagAfterFullSeconds()).isNull();
    }
}
