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

    /**
     * The source partitions not read up to their targets yet, e.g. {@code clicks:2 at 120 of 500}, in order: what a
     * stalled job's warning names, so that one stuck partition can be told from a whole job stuck.
     */
    String behind(Map<String, Long> target) {
        return new java.util.TreeMap<>(target).entrySet().stream()
            .filter(entry -> consumed.getOrDefault(entry.getKey(), 0L) < entry.getValue())
            .map(entry -> entry.getKey() + " at " + consumed.getOrDefault(entry.getKey(), 0L) + " of " + entry.getValue())
            .collect(java.util.stream.Collectors.joining(", "));
    }

    static String key(TopicPartition partition) {
        return partition.topic() + ":" + partition.partition();
    }

    static TopicPartition parse(String key) {
        int colon = key.lastIndexOf(':');
        return new TopicPartition(key.substring(0, colon), Integer.parseInt(key.substring(colon + 1)));
    }
}
