package io.kafkamv.service.tables;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether a table topic has a transaction in flight (a background statement writing to it): then
 * its last stable offset lags its end, and a read-committed scan sees the table as it was when
 * that transaction began.
 */
public final class OpenTransactions {

    private OpenTransactions() {
    }

    public static boolean on(Admin admin, String topic) throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        admin.describeTopics(java.util.List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
            .forEach(partition -> ends.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest()));
        // The end first, then the stable offset: without a transaction in flight the stable offset read after
        // has reached the end read before, however many plain writes other sessions make in between.
        Map<TopicPartition, ListOffsetsResultInfo> written = admin.listOffsets(ends,
            new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, ListOffsetsResultInfo> stable = admin.listOffsets(ends,
            new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(30, TimeUnit.SECONDS);
        return stable.entrySet().stream().anyMatch(entry -> entry.getValue().offset() < written.get(entry.getKey()).offset());
    }
}
