package io.kafkamv.service.jobs;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.kafkamv.jobstore.Job;

/**
 * What Kafka says of how far a job has come, all keyed {@code topic:partition} as jobs store offsets:
 * what {@link CatchUpRule} decides on, so that the rule can be tested without a broker.
 */
interface JobOffsets {

    /** The offsets the job's Kafka Streams application has committed; empty when they cannot be read now. */
    Map<String, Long> committed(Job job);

    /** The offsets a JDBC sink job has written into its table up to, from its own consumer group. */
    Map<String, Long> writtenToDatabase(long jobId) throws ExecutionException, InterruptedException, TimeoutException;

    /** The topics Kafka Streams made for the job (named after its application id): exchanges and changelogs. */
    Set<String> internalTopics(Job job) throws ExecutionException, InterruptedException, TimeoutException;

    /** The end offset of every partition of these topics. */
    Map<String, Long> ends(Collection<String> topics);

    /**
     * The first input offset, per input partition, that the partial aggregates of these changelogs hold back
     * as of the job's last commit; empty when that is not known yet (see {@link HeldBackOffsetsReader}).
     */
    Optional<Map<String, Long>> heldBack(Collection<String> changelogs);
}
