package io.kafkamv.service.jobs;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Holds a job to rates of source records per second by pausing and resuming its Kafka Streams instance: a backfill's
 * BACKFILL_RATE_LIMIT over all its sources, and a source's SOURCE_RATE_LIMIT over that source, whichever is spent
 * first. Counts what the main consumer has read from the topics, so a limit means what users expect whatever the
 * topology does with the records afterwards. A job is paused whole: one of its sources over its limit holds the others
 * back too.
 */
final class ReadThrottle {

    /** At most {@code limit} records per second from {@code topics}: 0 holds them, a negative limit is none. */
    record Budget(Set<String> topics, long limit) {
    }

    /** Each budget's start: the records read from its topics then, and when, so that its rate holds from then on. */
    private final Map<Budget, long[]> baselines = new HashMap<>();

    void apply(List<Budget> budgets, KafkaStreams streams) {
        baselines.keySet().retainAll(budgets);
        Map<MetricName, ? extends Metric> metrics = streams.metrics();
        long now = System.nanoTime();
        boolean pause = false;
        for (Budget budget : budgets) {
            if (budget.limit() < 0) {
                continue;
            }
            long consumed = consumed(metrics, budget.topics());
            long[] baseline = baselines.computeIfAbsent(budget, started -> new long[] {consumed, now});
            pause |= budget.limit() == 0 || consumed - baseline[0] > budget.limit() * ((now - baseline[1]) / 1e9);
        }
        if (pause && !streams.isPaused()) {
            streams.pause();
        } else if (!pause && streams.isPaused()) {
            streams.resume();
        }
    }

    /** Lets the job run for now, keeping its limits and what it has read against them. */
    void resume(KafkaStreams streams) {
        if (streams.isPaused()) {
            streams.resume();
        }
    }

    /** Lets the job run at full speed again, e.g. once it has created its object and no source of it has a limit. */
    void release(KafkaStreams streams) {
        baselines.clear();
        resume(streams);
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
