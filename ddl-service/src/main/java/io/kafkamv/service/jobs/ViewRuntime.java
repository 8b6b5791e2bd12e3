package io.kafkamv.service.jobs;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.topology.TopologyFactory;
import io.kafkamv.connectors.jdbc.JdbcSink;
import io.kafkamv.jobstore.Job;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One job's Kafka Streams instance on this service instance, built from the job's stored plan. */
final class ViewRuntime implements LocalView, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ViewRuntime.class);

    private final Job job;
    private final PhysicalPlan plan;
    private final KafkaStreams streams;
    private final CountedEvaluationErrors evaluationErrors;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ReadThrottle throttle = new ReadThrottle();
    /** Whether a limit of 0 (the backfill's, or a source's) holds the job now: it is not stalled, it is held. */
    private volatile boolean heldAtZero;
    /** Records left to restore of each store partition of the job's tasks here being restored, by store and partition. */
    private final RestoreProgress restoring = new RestoreProgress();
    private JobClientMeters metrics;
    private JdbcSink jdbcSink;
    private final ViewStore rows;
    /** Its threads while its parallelism is DEFAULT, and its commit interval: chosen when it started here. */
    private final JobShare share;

    private ViewRuntime(Job job, PhysicalPlan plan, KafkaStreams streams, CountedEvaluationErrors evaluationErrors,
                        org.apache.kafka.streams.TopologyDescription topology, JobShare share) {
        this.job = job;
        this.share = share;
        this.plan = plan;
        this.streams = streams;
        this.evaluationErrors = evaluationErrors;
        this.rows = new ViewStore(streams, plan, "", topology, applicationId(job));
    }

    /** The Kafka Streams application that runs the job in its generation: its consumer group and its topics' prefix. */
    static String applicationId(Job job) {
        return applicationId(job.id(), job.generation());
    }

    static String applicationId(long jobId, int generation) {
        return "kmv-job-" + jobId + (generation == 0 ? "" : "-g" + generation);
    }

    /** Whether Kafka Streams made this topic for the job's application of that generation (not of a later one). */
    static boolean isInternalTopicOf(String topic, long jobId, int generation) {
        String prefix = applicationId(jobId, generation) + "-";
        return topic.startsWith(prefix) && (generation != 0 || !topic.substring(prefix.length()).matches("g[0-9]+-.*"));
    }

    /** The consumer group that writes a JDBC sink's changes into its table: the same in every generation. */
    static String jdbcGroupId(long jobId) {
        return "kmv-job-" + jobId + "-jdbc";
    }

    /** The generation of the job this runtime runs. */
    int generation() {
        return job.generation();
    }

    /** The Kafka Streams configuration of an application of views on this instance: a job's own, or the shared one. */
    static Properties streamsProperties(Properties clientProperties, String applicationId, Path stateDir,
                                        String applicationServer, String instanceId, int threads,
                                        Duration commitInterval) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        // Other instances find the partitions of a view that live here by this address.
        properties.put(StreamsConfig.APPLICATION_SERVER_CONFIG, applicationServer);
        properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        // Exactly once: an instance that dies mid-batch must not make a survivor count its records twice.
        properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitInterval.toMillis());
        properties.put(StreamsConfig.TOPOLOGY_OPTIMIZATION_CONFIG, StreamsConfig.OPTIMIZE);
        properties.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
            LogAndContinueExceptionHandler.class);
        properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 5000);
        // Static membership: an instance that restarts (even after kill -9) takes its partitions back at
        // once instead of waiting for its old self to time out; one that never returns is replaced
        // within the shorter session timeout.
        properties.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), instanceId);
        properties.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
        // A member hears of a rebalance at its next heartbeat. Every new job has a second rebalance right after its
        // first (its repartition topics appear in the metadata), which waited up to 3 s for the other thread.
        properties.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 500);
        properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG), 4 * 1024 * 1024);
        // A new job restores its stores from changelogs that are empty, or nearly: each round of restores waited for
        // the broker's answer to a fetch that found nothing, up to the default 500 ms, and a new job with an exchange
        // has two rounds (one per rebalance). A fetch that finds data answers at once either way.
        properties.put(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 50);
        // One produce request in flight per broker, not five. With more, a producer whose partitions have data ready
        // but none it may send yet (at each commit's flush) polls with a zero timeout until the broker answers: it
        // spins. With 20 views being created at once on the embedded broker the spinning producers took 44% of the
        // service's CPU samples, which slowed the broker's answers, which lengthened the spinning: 20 views took 70 s,
        // with this 41-53 s. A 1M-row backfill is no slower.
        properties.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), 1);
        // A transaction's first records reach a partition while the previous transaction's markers may still be on
        // their way; the broker then answers CONCURRENT_TRANSACTIONS (thousands of times with 50 views at once) and
        // the producer tries again after its retry backoff, 100 ms growing to 1 s by default, with the stream thread's
        // commit waiting on it. Markers take milliseconds: try again soon (Kafka's own producer did the same for
        // AddPartitionsToTxn, KAFKA-5477). 50 views of 100,000 rows: 62.7 s before, 53.4 s with this. The backoff still
        // doubles up to its default second: this applies to every retry, and a broker that restarts is not asked 20
        // times a second by every producer.
        properties.put(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG), 10);
        // A new instance first warms up a copy of a partition's state and takes the partition over at the
        // next probing rebalance: every minute (the least Kafka Streams allows) instead of every ten, so
        // scaling out spreads a view's partitions within minutes.
        properties.put(StreamsConfig.PROBING_REBALANCE_INTERVAL_MS_CONFIG, 60_000L);
        return properties;
    }

    /**
     * @param threads its stream threads on this instance ({@link JobParallelism})
     * @param share          what this instance gives it, by how busy it is ({@link JobShare})
     * @param admin the service's admin client, which the job's Kafka Streams instance uses and does not close
     */
    static ViewRuntime start(Job job, PhysicalPlan plan, Properties clientProperties, Path stateDir, MeterRegistry registry,
                             String applicationServer, String instanceId, int threads, JobShare share, Admin admin) {
        Properties properties = streamsProperties(clientProperties, applicationId(job), stateDir, applicationServer,
            instanceId, threads, share.commitInterval());
        CountedEvaluationErrors evaluationErrors = new CountedEvaluationErrors(job);
        org.apache.kafka.streams.Topology topology;
        try {
            topology = TopologyFactory.build(plan, evaluationErrors);
        } catch (RuntimeException e) {
            throw new InvalidPlanException(e);
        }
        KafkaStreams streams = new KafkaStreams(topology, properties, new SharedAdminClientSupplier(admin));
        try {
            return start(job, plan, streams, evaluationErrors, topology.describe(), share, registry, clientProperties,
                instanceId);
        } catch (RuntimeException e) {
            // Its state directory's lock and its clients go with it, so that the next attempt can have them.
            streams.close(Duration.ofSeconds(10));
            throw e;
        }
    }

    private static ViewRuntime start(Job job, PhysicalPlan plan, KafkaStreams streams,
                                     CountedEvaluationErrors evaluationErrors,
                                     org.apache.kafka.streams.TopologyDescription topology,
                                     JobShare share, MeterRegistry registry,
                                     Properties clientProperties, String instanceId) {
        ViewRuntime runtime = new ViewRuntime(job, plan, streams, evaluationErrors, topology, share);
        RegistryOutageRetry registryRetry = new RegistryOutageRetry();
        streams.setUncaughtExceptionHandler(exception -> {
            var outage = RegistryOutageRetry.outage(exception);
            if (outage.isPresent()) {
                // A new thread starts again from the last commit (exactly once: nothing is counted twice).
                // The wait happens here, in the thread that failed: its tasks wait with it (the broker aborts
                // its open transaction after the EOS transaction timeout), while the job's other thread goes
                // on and the view stays queryable. Stopping the whole Kafka Streams instance instead, and
                // starting it later, was tried: the view could not be read on this instance until then.
                Duration delay = registryRetry.next(System.nanoTime());
                LOG.warn("Job {} ({}): the schema registry is unavailable ({}); its stream thread starts again "
                    + "from the last commit in {} s", job.id(), job.objectName(), outage.get().getMessage(), delay.toSeconds());
                try {
                    Thread.sleep(delay.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
            }
            runtime.failure.set(exception);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        runtime.metrics = JobClientMeters.bind(streams::metrics, registry, Tags.of("job_id", String.valueOf(job.id()),
            "object", job.objectName()));
        streams.setGlobalStateRestoreListener(runtime.restoring);
        try {
            streams.start();
            if (plan.sink() != null && plan.sink().writesToDatabase()) {
                // A sink that stops fails the job here, so that the runner starts it again after a pause.
                runtime.jdbcSink = new JdbcSink(clientProperties, plan.sink().topic(), jdbcGroupId(job.id()), instanceId,
                    JdbcSinks.target(plan), failure -> runtime.failure.compareAndSet(null, failure)).start();
            }
        } catch (RuntimeException e) {
            // Its meters and their scheduler go with the client, which the caller closes.
            runtime.metrics.close();
            throw e;
        }
        return runtime;
    }

    /** A plan from which no topology can be built: the same on every instance, so the job has failed. */
    static final class InvalidPlanException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidPlanException(RuntimeException cause) {
            super(cause.getMessage(), cause);
        }
    }

    @Override
    public Job job() {
        return job;
    }

    @Override
    public PhysicalPlan plan() {
        return plan;
    }

    /** Its store here. */
    @Override
    public ViewStore rows() {
        return rows;
    }

    @Override
    public boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    @Override
    public KafkaStreams.State state() {
        return streams.state();
    }

    /**
     * Each stream thread's state and tasks here, e.g. {@code StreamThread-1 RUNNING active [0_0, 1_0] standby []}, and the
     * records left to restore by store and partition: what a stalled job's warning says, so that a thread stuck apart
     * from the others can be told from a whole instance stuck, and a restore that does not end from processing that does
     * not start.
     */
    String threadsDescription() {
        java.util.Set<org.apache.kafka.streams.ThreadMetadata> threads;
        try {
            threads = streams.metadataForLocalThreads();
        } catch (RuntimeException notRunning) {
            // Only a running or rebalancing Kafka Streams tells: the warning it is for must still be logged.
            return "not known in state " + streams.state();
        }
        return threads.stream()
            .map(thread -> thread.threadName().replaceFirst(".*-(StreamThread-\\d+)$", "$1") + " " + thread.threadState()
                + " active " + thread.activeTasks().stream().map(task -> task.taskId().toString()).sorted().toList()
                + " standby " + thread.standbyTasks().stream().map(task -> task.taskId().toString()).sorted().toList())
            .sorted()
            .collect(java.util.stream.Collectors.joining("; ", "", "; restoring " + restoring.left()));
    }

    /** The records left to restore here, by store and changelog partition; empty when the job's state is whole. */
    Map<String, Long> restoreLeft() {
        return restoring.left();
    }

    /** The changelog partitions this instance is restoring the job's stores from. */
    Set<org.apache.kafka.common.TopicPartition> restoringPartitions() {
        return restoring.partitions();
    }

    /**
     * Applies the job's current backfill rate limit while it creates its object, and the rate limits of the sources it
     * reads ({@code sourceLimits}, by topic) always; lifts them when none is left.
     */
    synchronized void throttle(Job current, Map<String, Long> sourceLimits) {
        List<ReadThrottle.Budget> budgets = new ArrayList<>();
        if (current.status() == io.kafkamv.jobstore.JobStatus.CREATING && current.rateLimit() >= 0) {
            budgets.add(new ReadThrottle.Budget(Set.copyOf(plan.sourceTopics()), current.rateLimit()));
        }
        for (String topic : plan.sourceTopics()) {
            Long limit = sourceLimits.get(topic);
            if (limit != null && limit >= 0) {
                budgets.add(new ReadThrottle.Budget(Set.of(topic), limit));
            }
        }
        heldAtZero = budgets.stream().anyMatch(budget -> budget.limit() == 0);
        if (budgets.isEmpty()) {
            throttle.release(streams);
        } else if (!isRunning() && budgets.stream().allMatch(budget -> budget.limit() > 0)) {
            // A positive limit holds back processing only: pausing while tasks restore their state (after a
            // rebalance or an unclean restart) would hold back the restore too, which Kafka Streams may not pick
            // up again on resume. The limits and their counts stay, so the time running catches up with them.
            throttle.resume(streams);
        } else {
            throttle.apply(budgets, streams);
        }
    }

    /**
     * Whether the job's local state is whole here: running, with nothing left to restore from its changelogs (after a
     * restart, or partitions taken over). Its rows can be read before, but are older than its sources until then.
     */
    @Override
    public boolean hydrated() {
        return isRunning() && restoring.done();
    }

    int defaultThreads() {
        return share.defaultThreads();
    }

    /** The stream threads this instance runs the job with now, not counting one that is shutting down. */
    int threads() {
        return (int) streams.metadataForLocalThreads().stream()
            .filter(thread -> !thread.threadState().equals("PENDING_SHUTDOWN")).count();
    }

    /** Whether one of its threads is shutting down: removed, or being replaced after a failure. */
    boolean threadShuttingDown() {
        return streams.metadataForLocalThreads().stream()
            .anyMatch(thread -> thread.threadState().equals("PENDING_SHUTDOWN"));
    }

    /** Whether a limit of 0 holds the job now (see {@link #throttle}). */
    boolean heldAtZero() {
        return heldAtZero;
    }

    /**
     * Adds or removes stream threads until there are {@code threads} (ALTER ... SET PARALLELISM), as far as Kafka
     * Streams can now: it adds threads only while running or rebalancing, and a removal waits for the thread to
     * commit and leave. The next reconcile tries again.
     */
    void resize(int threads) {
        int running = threads();
        while (running < threads && streams.addStreamThread().isPresent()) {
            running++;
        }
        while (running > threads && streams.removeStreamThread(Duration.ofSeconds(30)).isPresent()) {
            running--;
        }
        LOG.info("Job {} ({}) runs with {} stream threads on this instance", job.id(), job.objectName(), running);
    }

    Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** This instance's share of the object, read from its local store and its Kafka Streams metrics. */
    @Override
    public LocalViewStats stats() {
        long rows = this.rows.counted();
        double lag = 0;
        double rate = 0;
        double deadLetters = 0;
        for (var metric : streams.metrics().entrySet()) {
            MetricName name = metric.getKey();
            if (!(metric.getValue().metricValue() instanceof Double value) || value.isNaN()) {
                continue;
            }
            if (isInputLag(name)) {
                lag += value;
            } else if (name.name().equals("process-rate") && name.group().equals("stream-thread-metrics")) {
                rate += value;
            } else if (name.name().equals("dead-letters-total") && name.group().equals("stream-kafkamv-metrics")) {
                deadLetters += value;
            }
        }
        return new LocalViewStats(job.id(), job.objectName(), rows, (long) lag, rate, (long) deadLetters,
            evaluationErrors.count(), threads(), streams.isPaused());
    }

    /**
     * Whether the metric is a lag of the view's inputs: the main consumer's, not the restore consumer's (restoring
     * state) nor the global consumer's (the copy of a table a lookup join reads, which is not the view's input).
     */
    static boolean isInputLag(MetricName name) {
        String client = name.tags().getOrDefault("client-id", "");
        return name.name().equals("records-lag") && name.group().equals("consumer-fetch-manager-metrics")
            && !client.endsWith("-restore-consumer") && !client.endsWith("-global-consumer");
    }

    /**
     * Stops the instance. With {@code forGood} (cancel, drop) it also leaves the consumer group at
     * once, so the group can be deleted without waiting for the session to time out, and deletes
     * its local state. Otherwise (shutdown) it stays a member, so a quick restart does not rebalance. Says whether
     * it closed: one that did not within 30 s may still have threads that process and commit.
     */
    boolean stop(boolean forGood) {
        return stop(forGood, forGood);
    }

    /**
     * Stops a job that stalled, to start it again: it leaves the group too, so that its next start joins afresh
     * instead of taking back, as the same static members, an assignment the group may be stuck on.
     */
    void stopToRestart() {
        stop(true, false);
    }

    private boolean stop(boolean leaveGroup, boolean forGood) {
        try {
            if (jdbcSink != null) {
                jdbcSink.close();
            }
        } finally {
            metrics.close();
        }
        boolean closed = streams.close(CloseOptions.timeout(Duration.ofSeconds(30)).withGroupMembershipOperation(
            leaveGroup ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP));
        if (forGood && closed) {
            streams.cleanUp();
        } else if (forGood) {
            // Kafka Streams refuses to clean up while its threads still run: the runner's LocalStateSweeper does it later.
            LOG.warn("Job {}: Kafka Streams did not close within 30 s; its local state is deleted later", job.id());
        }
        return closed;
    }

    @Override
    public void close() {
        stop(false);
    }
}
