package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The metrics of a job's Kafka Streams clients that an operator reads, as Micrometer meters named as Micrometer's Kafka
 * binder names them ({@code kafka.stream.thread.process.rate}, {@code kafka_stream_thread_process_rate} in Prometheus).
 *
 * <p>Not every metric: a Kafka Streams instance has about 2,300 (per task, store, processor, broker connection and
 * partition), and Micrometer's binder bridged them all, each job with a thread of its own that looked them over every
 * minute. At 20 views that thread was 60% of an idle instance's CPU and /metrics had 46,000 lines; at hundreds of views
 * it would be most of the machine. Bridged here: Kafka Streams' client, thread and state-updater groups and kafka-mv's
 * own sensors whole, and a few client-wide consumer and producer figures (lag, rates, rebalances, transaction times).
 * Per-partition lag and row counts are kafka-mv's own {@code kafkamv_view_*} families. One thread, shared by every job,
 * adds the metrics that appear later (a thread added by ALTER ... SET PARALLELISM) and removes those gone.
 */
final class JobClientMeters implements AutoCloseable {

    private static final Duration REFRESH = Duration.ofSeconds(30);
    private static final ScheduledExecutorService REFRESHER = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "kafkamv-client-meters");
        thread.setDaemon(true);
        return thread;
    });

    private static final Set<String> WHOLE_GROUPS = Set.of("stream-metrics", "stream-thread-metrics",
        "stream-state-updater-metrics", "stream-kafkamv-metrics");
    private static final Map<String, Set<String>> CLIENT_WIDE = Map.of(
        "consumer-fetch-manager-metrics", Set.of("records-lag-max", "records-consumed-rate", "bytes-consumed-rate",
            "fetch-rate", "fetch-latency-avg"),
        "consumer-coordinator-metrics", Set.of("rebalance-total", "failed-rebalance-total", "rebalance-latency-avg",
            "last-rebalance-seconds-ago"),
        "producer-metrics", Set.of("record-send-rate", "record-error-total", "txn-commit-time-ns-total",
            "txn-abort-time-ns-total"));

    private final KafkaStreams streams;
    private final MeterRegistry registry;
    private final Tags tags;
    private final Map<MetricName, Meter> meters = new HashMap<>();
    private final ScheduledFuture<?> refreshing;
    private boolean closed;

    private JobClientMeters(KafkaStreams streams, MeterRegistry registry, Tags tags) {
        this.streams = streams;
        this.registry = registry;
        this.tags = tags;
        refresh();
        this.refreshing = REFRESHER.scheduleWithFixedDelay(this::refresh, REFRESH.toMillis(), REFRESH.toMillis(),
            TimeUnit.MILLISECONDS);
    }

    /** Registers the job's bridged metrics now and keeps them current until closed. */
    static JobClientMeters bind(KafkaStreams streams, MeterRegistry registry, Tags tags) {
        return new JobClientMeters(streams, registry, tags);
    }

    /** Whether a Kafka client metric is bridged (see the class comment). */
    static boolean bridged(MetricName name) {
        if (WHOLE_GROUPS.contains(name.group())) {
            return true;
        }
        Set<String> names = CLIENT_WIDE.get(name.group());
        return names != null && names.contains(name.name())
            && !name.tags().containsKey("topic") && !name.tags().containsKey("partition");
    }

    synchronized void refresh() {
        if (closed) {
            return;
        }
        Map<MetricName, ? extends Metric> current = streams.metrics();
        meters.entrySet().removeIf(bound -> {
            if (current.containsKey(bound.getKey())) {
                return false;
            }
            registry.remove(bound.getValue());
            return true;
        });
        current.forEach((name, metric) -> {
            if (!meters.containsKey(name) && bridged(name)) {
                meters.put(name, register(name, metric));
            }
        });
    }

    private Meter register(MetricName name, Metric metric) {
        String meterName = "kafka." + name.group().replace("-metrics", "").replace('-', '.') + "."
            + name.name().replace('-', '.');
        Tags all = tags;
        for (Map.Entry<String, String> tag : name.tags().entrySet()) {
            all = all.and(tag.getKey().replace('-', '.'), tag.getValue());
        }
        if (name.name().endsWith("-total")) {
            return FunctionCounter.builder(meterName, metric, JobClientMeters::value).tags(all)
                .description(name.description()).register(registry);
        }
        return Gauge.builder(meterName, metric, JobClientMeters::value).tags(all).description(name.description())
            .register(registry);
    }

    private static double value(Metric metric) {
        return metric.metricValue() instanceof Number number ? number.doubleValue() : Double.NaN;
    }

    @Override
    public synchronized void close() {
        closed = true;
        refreshing.cancel(false);
        meters.values().forEach(registry::remove);
        meters.clear();
    }
}
