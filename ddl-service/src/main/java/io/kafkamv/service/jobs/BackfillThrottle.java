package io.kafkamv.service.jobs;

import java.util.Collection;
import java.util.Map;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Holds a backfill to a rate of source records per second by pausing and resuming its Kafka
 * Streams instance: 0 pauses it, a negative limit lets it run free. Counts what the main consumer
 * has read from the source topics, so the limit means what users expect whatever the topology does
 * with the records afterwards.
 */
final class BackfillThrottle {

    private long limit = -1;
    private long baselineRecords;
    private long baselineNanos;

    void apply(long newLimit, KafkaStreams streams, Collection<String> sourceTopics) {
        long consumed = consumed(streams.metrics(), sourceTopics);
        long now = System.nanoTime();
        if (newLimit != limit) {
            limit = newLimit;
            baselineRecords = consumed;
            baselineNanos = now;
        }
        boolean pause = limit == 0
            || limit > 0 && consumed - baselineRecords > limit * ((now - baselineNanos) / 1e9);
        if (pause && !streams.isPaused()) {
            streams.pause();
        } else if (!pause && streams.isPaused()) {
            streams.resume();
        }
    }

    /** Lets the job run for now, keeping its limit and what it has read against it. */
    void resume(KafkaStreams streams) {
        if (streams.isPaused()) {
            streams.resume();
        }
    }

    /** Lets the job run at full speed again, e.g. once it has created its object. */
    void release(KafkaStreams streams) {
        limit = -1;
        if (streams.isPaused()) {
            streams.resume();
        }
    }

    private static long consumed(Map<MetricName, ? extends Metric> metrics, Collection<String> sourceTopics) {
        long total = 0;
        for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
            MetricName name = entry.getKey();
            String topic = name.tags().get("topic");
            String client = name.tags().getOrDefault("client-id", "");
            if ("records-consumed-total".equals(name.name()) && topic != null && sourceTopics.contains(topic)
                && client.endsWith("-consumer") && !client.contains("restore")) {
                total += ((Number) entry.getValue().metricValue()).longValue();
            }
        }
        return total;
    }
}
