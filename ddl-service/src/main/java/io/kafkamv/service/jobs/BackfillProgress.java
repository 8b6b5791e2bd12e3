package io.kafkamv.service.jobs;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

/**
 * How far a job's backfill is: records consumed up to its committed offsets over records up to its
 * target offsets, over every source partition. Computed from Kafka alone, so every instance
 * reports the same figure.
 */
record BackfillProgress(Map<String, Long> consumed, double fraction, boolean done) {

    /** From the offsets a job started at and must reach, and those it has committed, all keyed {@code topic:partition}. */
    static BackfillProgress of(Map<String, Long> start, Map<String, Long> target, Map<String, Long> committed) {
        Map<String, Long> consumed = new HashMap<>();
        long total = 0;
        long done = 0;
        boolean complete = true;
        for (Map.Entry<String, Long> entry : target.entrySet()) {
            String partition = entry.getKey();
            long from = start.getOrDefault(partition, 0L);
            long to = entry.getValue();
            Long commit = committed.get(partition);
            long position = commit == null ? from : Math.min(Math.max(commit, from), to);
            consumed.put(partition, position);
            total += to - from;
            done += position - from;
            if (position < to) {
                complete = false;
            }
        }
        double fraction = total == 0 ? 1.0 : (double) done / total;
        return new BackfillProgress(consumed, complete ? 1.0 : Math.min(fraction, 0.9999), complete);
    }

    static String key(TopicPartition partition) {
        return partition.topic() + ":" + partition.partition();
    }

    static TopicPartition parse(String key) {
        int colon = key.lastIndexOf(':');
        return new TopicPartition(key.substring(0, colon), Integer.parseInt(key.substring(colon + 1)));
    }
}
