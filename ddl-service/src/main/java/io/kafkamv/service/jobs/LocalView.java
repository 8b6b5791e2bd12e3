package io.kafkamv.service.jobs;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.jobstore.Job;
import org.apache.kafka.streams.KafkaStreams;

/**
 * A job's object as this instance runs it: in the job's own Kafka Streams application ({@link ViewRuntime}), or as
 * a member of the shared one ({@link SharedRuntime}). What reads and statistics need, whichever it is.
 */
interface LocalView {

    Job job();

    PhysicalPlan plan();

    /** Whether the Kafka Streams instance that runs it here is running. */
    default boolean isRunning() {
        return state() == KafkaStreams.State.RUNNING;
    }

    KafkaStreams.State state();

    /** Its store here. */
    ViewStore rows();

    /**
     * Whether its local state is whole here: running, with nothing left to restore from its changelogs (after a
     * restart, or partitions taken over). Its rows can be read before, but are older than its sources until then.
     */
    boolean hydrated();

    /** This instance's share of the object, read from its local store and its Kafka Streams metrics. */
    LocalViewStats stats();
}
