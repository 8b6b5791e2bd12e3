package io.kafkamv.service.jobs;

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
    /** Each consumer's last count by topic, by {@code client-id/topic}: its metrics go with a thread that goes. */
    private final Map<String, Long> lastCounts = new HashMap<>();
    /** Records read from each topic since this throttle began, over every thread the job has had. */
    private final Map<String, Long> readByTopic = new HashMap<>();

    void apply(List<Budget> budgets, KafkaStreams streams) {
        baselines.keySet().retainAll(budgets);
        count(streams.metrics());
        long now = System.nanoTime();
        boolean pause = false;
        for (Budget budget : budgets) {
            if (budget.limit() < 0) {
                continue;
            }
            long consumed = budget.topics().stream().mapToLong(topic -> readByTopic.getOrDefault(topic, 0L)).sum();
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

    /**
     * Adds what each main consumer has read from each topic since the last count. A thread removed or replaced takes its
     * metrics with it, and a new one counts from 0: summing the counts as they are would go back, and let the job read
     * that much again at full speed.
     */
    private void count(Map<MetricName, ? extends Metric> metrics) {
        for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
            MetricName name = entry.getKey();
            String topic = name.tags().get("topic");
            String client = name.tags().getOrDefault("client-id", "");
            if ("records-consumed-total".equals(name.name()) && topic != null
                && client.endsWith("-consumer") && !client.contains("restore")) {
                long count = ((Number) entry.getValue().metricValue()).longValue();
                Long last = lastCounts.put(client + "/" + topic, count);
                long read = last == null || count < last ? count : count - last;
                readByTopic.merge(topic, read, Long::sum);
            }
        }
    }
}
