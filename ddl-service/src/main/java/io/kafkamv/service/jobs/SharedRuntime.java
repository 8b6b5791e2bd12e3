package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.topology.TopologyFactory;
import io.kafkamv.compiler.topology.TopologyFactory.PrefixedPlan;
import io.kafkamv.jobstore.Job;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyDescription;

/**
 * The Kafka Streams application {@code kmv}, in which created views run together (docs/concepts.md, "Many views on
 * one instance"): one consumer group, one set of stream threads and producers for all of them, instead of a Kafka
 * Streams instance per view. Its topology is its members' plans in the order they joined
 * ({@link TopologyFactory#buildShared}), each under the prefix that gives it the changelogs and internal topics of
 * its own application; a change of members is a new topology, so the application stops and starts with it.
 */
final class SharedRuntime implements AutoCloseable {

    static final String APPLICATION_ID = "kmv";

    /**
     * A created view of the shared application, and where its reading of the topics it shares with the members before
     * it begins, by {@code topic:partition} (see {@code SharedMembers#readFrom}).
     */
    record Member(Job job, PhysicalPlan plan, Map<String, Long> readFrom) {

        Member {
            readFrom = Map.copyOf(readFrom);
        }

        Member(Job job, PhysicalPlan plan) {
            this(job, plan, Map.of());
        }

        /** Its names' prefix: its own application's id after {@code kmv-}, so that {@code kmv-} + prefix is that id. */
        String prefix() {
            return prefix(job);
        }

        static String prefix(Job job) {
            return ViewRuntime.applicationId(job).substring(APPLICATION_ID.length() + 1) + "-";
        }
    }

    private final int generation;
    private final Map<Long, MemberView> members = new LinkedHashMap<>();
    private final KafkaStreams streams;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** Records left to restore of each store partition being restored here, by store and partition. */
    private final RestoreProgress restoring = new RestoreProgress();
    /** Whether {@link #close} was called: it is not to run on, even if the close timed out. */
    private volatile boolean closing;
    /** Whether {@link #close} has closed it: a close that timed out leaves threads that may still commit. */
    private volatile boolean closed;

    private SharedRuntime(int generation, List<Member> members, Map<Long, CountedEvaluationErrors> errors,
                          KafkaStreams streams, TopologyDescription topology) {
        this.generation = generation;
        this.streams = streams;
        members.forEach(member -> this.members.put(member.job().id(), new MemberView(member, errors.get(member.job().id()),
            new ViewStore(streams, member.plan(), member.prefix(), topology, APPLICATION_ID))));
    }

    /**
     * Starts the application with {@code members}, in this order, over {@code properties} (those of a job's own
     * application: clients, state directory, threads, exactly once), whose application id it sets.
     */
    static SharedRuntime start(List<Member> members, Properties properties, Admin admin) {
        return start(0, members, properties, admin);
    }

    /** Starts the application as the members' {@code generation} ({@code SharedMembers}) says them. */
    static SharedRuntime start(int generation, List<Member> members, Properties properties, Admin admin) {
        Properties shared = new Properties();
        shared.putAll(properties);
        shared.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        Map<Long, CountedEvaluationErrors> errors = new LinkedHashMap<>();
        members.forEach(member -> errors.put(member.job().id(), new CountedEvaluationErrors(member.job())));
        var topology = TopologyFactory.buildShared(members.stream()
            .map(member -> new PrefixedPlan(member.prefix(), member.plan(), errors.get(member.job().id()),
                member.readFrom()))
            .toList());
        KafkaStreams streams = new KafkaStreams(topology, shared, new SharedAdminClientSupplier(admin));
        SharedRuntime runtime = new SharedRuntime(generation, members, errors, streams, topology.describe());
        // A failure of one member's processing stops them all: the runner starts the application again from the last
        // commit (exactly once), as it starts a job's own application again.
        streams.setUncaughtExceptionHandler(exception -> {
            runtime.failure.set(exception);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse
                .SHUTDOWN_CLIENT;
        });
        streams.setGlobalStateRestoreListener(runtime.restoring);
        try {
            streams.start();
        } catch (RuntimeException e) {
            // Its state directory's lock and its clients go with it, so that the next attempt can have them.
            streams.close(Duration.ofSeconds(10));
            throw e;
        }
        return runtime;
    }

    /** The generation of members it runs. */
    int generation() {
        return generation;
    }

    /** Its members' job ids, in the order they joined. */
    List<Long> memberIds() {
        return List.copyOf(members.keySet());
    }

    boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    KafkaStreams.State state() {
        return streams.state();
    }

    Optional<Throwable> failure() {
        return Optional.ofNullable(failure.get());
    }

    /**
     * Stops processing and goes on committing what it processed: its committed positions stop moving after a commit
     * interval. {@link #resume} goes on.
     */
    void pause() {
        streams.pause();
    }

    void resume() {
        streams.resume();
    }

    /** A member's view here. */
    Optional<LocalView> member(long jobId) {
        return Optional.ofNullable(members.get(jobId));
    }

    List<LocalView> views() {
        return List.copyOf(members.values());
    }

    /** Whether the application's state is whole here, every member's: running, with nothing left to restore. */
    boolean hydrated() {
        return isRunning() && restoring.done();
    }

    /**
     * Stops the application and leaves its group, so that the group is empty at once: its offsets can then be handed
     * views ({@link ViewHandoff}) and its next topology starts without waiting for this member to time out.
     */
    @Override
    public void close() {
        closing = true;
        closed = streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
            .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
    }

    /** Whether it was told to close, whether or not that is done. */
    boolean closing() {
        return closing;
    }

    /** Whether it is closed, its threads all gone: another application {@code kmv} may start here. */
    boolean closed() {
        return closed;
    }

    /** One member, read through the shared application. */
    private final class MemberView implements LocalView {
        private final Member member;
        private final CountedEvaluationErrors evaluationErrors;
        private final ViewStore rows;

        MemberView(Member member, CountedEvaluationErrors evaluationErrors, ViewStore rows) {
            this.member = member;
            this.evaluationErrors = evaluationErrors;
            this.rows = rows;
        }

        @Override
        public Job job() {
            return member.job();
        }

        @Override
        public PhysicalPlan plan() {
            return member.plan();
        }

        @Override
        public KafkaStreams.State state() {
            return streams.state();
        }

        @Override
        public ViewStore rows() {
            return rows;
        }

        @Override
        public boolean hydrated() {
            return isRunning() && restoring.doneFor(member.prefix());
        }

        /**
         * Its rows, lag and dead letters; no rate of its own, since its records are processed together with the other
         * members', and the threads are the application's.
         */
        @Override
        public LocalViewStats stats() {
            String internal = APPLICATION_ID + "-" + member.prefix();
            double lag = 0;
            double deadLetters = 0;
            for (var metric : streams.metrics().entrySet()) {
                MetricName name = metric.getKey();
                if (!(metric.getValue().metricValue() instanceof Double value) || value.isNaN()) {
                    continue;
                }
                String topic = name.tags().getOrDefault("topic", "");
                if (ViewRuntime.isInputLag(name) && (topic.startsWith(internal) || member.plan().sourceTopics().contains(topic))) {
                    lag += value;
                } else if (name.name().equals("dead-letters-total") && name.group().equals("stream-kafkamv-metrics")
                    && name.tags().values().stream().anyMatch(tag -> tag.startsWith(member.prefix()))) {
                    deadLetters += value;
                }
            }
            return new LocalViewStats(job().id(), job().objectName(), rows.counted(), (long) lag, 0, (long) deadLetters,
                evaluationErrors.count(), 0, false);
        }
    }
}
