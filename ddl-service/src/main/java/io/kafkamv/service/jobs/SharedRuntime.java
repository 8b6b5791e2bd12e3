package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.topology.TopologyFactory;
import io.kafkamv.compiler.topology.TopologyFactory.PrefixedPlan;
import io.kafkamv.jobstore.Job;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The Kafka Streams application {@code kmv}, in which created views run together (docs/concepts.md, "Many views on
 * one instance"): one consumer group, one set of stream threads and producers for all of them, instead of a Kafka
 * Streams instance per view. Its topology is its members' plans in the order they joined
 * ({@link TopologyFactory#buildShared}), each under the prefix that gives it the changelogs and internal topics of
 * its own application; a change of members is a new topology, so the application stops and starts with it.
 */
final class SharedRuntime implements AutoCloseable {

    static final String APPLICATION_ID = "kmv";

    /** A created view of the shared application. */
    record Member(Job job, PhysicalPlan plan) {

        /** Its names' prefix: its own application's id after {@code kmv-}, so that {@code kmv-} + prefix is that id. */
        String prefix() {
            return ViewRuntime.applicationId(job).substring(APPLICATION_ID.length() + 1) + "-";
        }
    }

    private final Map<Long, Member> members;
    private final KafkaStreams streams;

    private SharedRuntime(List<Member> members, KafkaStreams streams) {
        this.members = members.stream().collect(Collectors.toMap(member -> member.job().id(), Function.identity()));
        this.streams = streams;
    }

    /**
     * Starts the application with {@code members}, in this order, over {@code properties} (those of a job's own
     * application: clients, state directory, threads, exactly once), whose application id it sets.
     */
    static SharedRuntime start(List<Member> members, Properties properties, Admin admin) {
        Properties shared = new Properties();
        shared.putAll(properties);
        shared.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        var topology = TopologyFactory.buildShared(members.stream()
            .map(member -> new PrefixedPlan(member.prefix(), member.plan(), new CountedEvaluationErrors(member.job())))
            .toList());
        KafkaStreams streams = new KafkaStreams(topology, shared, new SharedAdminClientSupplier(admin));
        try {
            streams.start();
        } catch (RuntimeException e) {
            // Its state directory's lock and its clients go with it, so that the next attempt can have them.
            streams.close(Duration.ofSeconds(10));
            throw e;
        }
        return new SharedRuntime(List.copyOf(members), streams);
    }

    boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** The view's rows on this instance, or empty while they cannot be read (not a member, not running yet). */
    Optional<ReadOnlyKeyValueStore<Object[], Object[]>> store(long jobId) {
        Member member = members.get(jobId);
        if (member == null || !isRunning()) {
            return Optional.empty();
        }
        try {
            return Optional.of(streams.store(StoreQueryParameters.fromNameAndType(member.prefix() + member.plan().store(),
                QueryableStoreTypes.<Object[], Object[]>keyValueStore())));
        } catch (RuntimeException notReady) {
            return Optional.empty();
        }
    }

    /**
     * Stops the application and leaves its group, so that the group is empty at once: its offsets can then be handed
     * views ({@link ViewHandoff}) and its next topology starts without waiting for this member to time out.
     */
    @Override
    public void close() {
        streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
            .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
    }
}
