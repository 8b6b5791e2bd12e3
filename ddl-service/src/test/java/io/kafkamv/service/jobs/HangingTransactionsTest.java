package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class HangingTransactionsTest {

    @Test
    void aTransactionIsHangingWhenItWasOpenBeforeAndItsCoordinatorIsNotEndingIt() {
        TopicPartition changelog = new TopicPartition("c", 3);
        HangingTransactions.Open lost = new HangingTransactions.Open(changelog, 2, 86, 170980, 1, "t-1 Empty epoch 88",
            false);
        HangingTransactions.Open ending = new HangingTransactions.Open(changelog, 5, 3, 200, 1, "t-2 Ongoing epoch 3",
            true);
        HangingTransactions.Open newer = new HangingTransactions.Open(changelog, 2, 86, 171000, 1, "t-1 Empty epoch 88",
            false);

        assertThat(HangingTransactions.hanging(List.of(lost, ending), List.of(lost, ending))).containsExactly(lost);
        assertThat(HangingTransactions.hanging(List.of(), List.of(lost))).as("not seen before").isEmpty();
        assertThat(HangingTransactions.hanging(List.of(lost), List.of(newer))).as("another transaction").isEmpty();
    }

}
