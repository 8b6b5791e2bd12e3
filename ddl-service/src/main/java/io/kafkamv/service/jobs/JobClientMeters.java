package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * adds the metrics that appear later (a thread added by ALTER ... SET PARALLELISM) and removes those gone. Only numbers
 * are bridged: the text metrics (version, topology, state as words) would be gauges that always read NaN.
 */
final class JobClientMeters implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobClientMeters.class);
    private static final Duration REFRESH = Duration.ofSeconds(30);
    private static final ScheduledThreadPoolExecutor REFRESHER = refresher();

    private static final Set<String> WHOLE_GROUPS = Set.of("stream-metrics", "stream-thread-metrics",
        "stream-state-updater-metrics", "stream-kafkamv-metrics");
    private static final Map<String, Set<String>> CLIENT_WIDE = Map.of(
        "consumer-fetch-manager-metrics", Set.of("records-lag-max", "records-consumed-rate", "bytes-consumed-rate",
            "fetch-rate", "fetch-latency-avg"),
        "consumer-coordinator-metrics", Set.of("rebalance-total", "failed-rebalance-total", "rebalance-latency-avg",
            "last-rebalance-seconds-ago"),
        "producer-metrics", Set.of("record-send-rate", "record-error-total", "txn-commit-time-ns-total",
            "txn-abort-time-ns-total"));

    private final Supplier<Map<MetricName, ? extends Metric>> metrics;
    private final MeterRegistry registry;
    private final Tags tags;
    private final Map<MetricName, Bound> meters = new HashMap<>();
    private final ScheduledFuture<?> refreshing;
    private boolean closed;

    /** A meter and the Kafka metric it reads: a metric removed and made again under its name (a replaced thread's) is another. */
    private record Bound(Metric metric, Meter meter) {
    }

    private JobClientMeters(Supplier<Map<MetricName, ? extends Metric>> metrics, MeterRegistry registry, Tags tags) {
        this.metrics = metrics;
        this.registry = registry;
        this.tags = tags;
        try {
            refresh();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.refreshing = REFRESHER.scheduleWithFixedDelay(this::refreshSafely, REFRESH.toMillis(), REFRESH.toMillis(),
            TimeUnit.MILLISECONDS);
    }

    private static ScheduledThreadPoolExecutor refresher() {
        ScheduledThreadPoolExecutor refresher = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "kafkamv-client-meters");
            thread.setDaemon(true);
            return thread;
        });
        // A closed job's refresh leaves the queue at once, and with it what it holds: the job's Kafka Streams instance.
        refresher.setRemoveOnCancelPolicy(true);
        return refresher;
    }

    /**
     * Registers the job's bridged metrics now and keeps them current until closed.
     *
     * @param metrics the metrics of the job's Kafka Streams instance as they are now ({@code KafkaStreams::metrics})
     */
    static JobClientMeters bind(Supplier<Map<MetricName, ? extends Metric>> metrics, MeterRegistry registry, Tags tags) {
        return new JobClientMeters(metrics, registry, tags);
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

    /** A refresh that throws would end the schedule for good, and the job's meters would stop following its clients. */
    private void refreshSafely() {
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.warn("The client metrics of a Kafka Streams instance could not be bridged; trying again in {} s",
                REFRESH.toSeconds(), e);
        }
    }

    synchronized void refresh() {
        if (closed) {
            return;
        }
        Map<MetricName, ? extends Metric> current = metrics.get();
        meters.entrySet().removeIf(bound -> {
            if (current.get(bound.getKey()) == bound.getValue().metric()) {
                return false;
            }
            registry.remove(bound.getValue().meter());
            return true;
        });
        current.forEach((name, metric) -> {
            if (!meters.containsKey(name) && bridged(name) && metric.metricValue() instanceof Number) {
                meters.put(name, new Bound(metric, register(name, metric)));
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
        if (refreshing != null) {
            refreshing.cancel(false);
        }
        meters.values().forEach(bound -> registry.remove(bound.meter()));
        meters.clear();
    }
}
