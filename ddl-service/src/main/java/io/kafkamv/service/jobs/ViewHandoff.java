package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Hands a created view over from its own Kafka Streams application to the shared one (docs/concepts.md, "Many views
 * on one instance"), while neither runs: the shared application's group takes up the view's reading positions where
 * the view's own group left them. Its stores need no copy: under its prefix in the shared application they have the
 * changelogs they had alone ({@code TopologyFactory.buildShared}).
 *
 * <p>A source the shared application already reads is read once there, for every view: the view's own position on it
 * must be the same, or the view would see records twice or never.
 */
final class ViewHandoff {

    private ViewHandoff() {
    }

    /**
     * The view's sources are {@code sources}; the shared application's members read {@code sharedSources}. Both groups
     * are empty (their members left). What the shared group has committed of a topic no member reads (left by a move
     * that did not finish) is no one's position: the view's own replaces it.
     */
    static void handOver(Admin admin, String ownGroup, String sharedGroup, Collection<String> sources,
                         Collection<String> sharedSources, Duration timeout)
        throws InterruptedException, ExecutionException, TimeoutException {
        handOver(admin, ownGroup, sharedGroup, sources, sharedSources, false, timeout);
    }

    /**
     * Like {@link #handOver(Admin, String, String, Collection, Collection, Duration)}, but on a source both read the
     * view may stand ahead of the shared application: it already holds what the shared application reads next up to
     * its own position. Returns, by {@code topic:partition}, the positions it stands ahead at: where its reading in the
     * shared topology must begin (see {@code TopologyFactory.PrefixedPlan}).
     */
    static Map<String, Long> handOverAhead(Admin admin, String ownGroup, String sharedGroup, Collection<String> sources,
                                          Collection<String> sharedSources, Duration timeout)
        throws InterruptedException, ExecutionException, TimeoutException {
        return handOver(admin, ownGroup, sharedGroup, sources, sharedSources, true, timeout);
    }

    private static Map<String, Long> handOver(Admin admin, String ownGroup, String sharedGroup,
                                              Collection<String> sources, Collection<String> sharedSources,
                                              boolean ahead, Duration timeout)
        throws InterruptedException, ExecutionException, TimeoutException {
        requireEmpty(admin, List.of(ownGroup, sharedGroup), timeout);
        Map<TopicPartition, OffsetAndMetadata> own = committed(admin, ownGroup, timeout);
        Map<TopicPartition, OffsetAndMetadata> shared = committed(admin, sharedGroup, timeout);
        shared.keySet().removeIf(partition -> !sharedSources.contains(partition.topic()));
        List<String> apart = new ArrayList<>();
        Map<String, Long> readFrom = new HashMap<>();
        Map<TopicPartition, OffsetAndMetadata> taken = new HashMap<>();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> mine : own.entrySet()) {
            TopicPartition partition = mine.getKey();
            long here = mine.getValue().offset();
            // Kafka Streams keeps a partition's stream time in the metadata of its commit: it goes along.
            String metadata = mine.getValue().metadata();
            if (!sharedSources.contains(partition.topic())) {
                taken.put(partition, new OffsetAndMetadata(here, metadata));
                continue;
            }
            OffsetAndMetadata there = shared.get(partition);
            // A partition of a shared source with no position there is read from wherever the reset policy says.
            if (there == null || here < there.offset() || here > there.offset() && !ahead) {
                apart.add(partition + " at " + here + " alone, " + (there == null ? "none" : there.offset()) + " shared");
            } else if (here > there.offset()) {
                readFrom.put(partition.topic() + ":" + partition.partition(), here);
            }
        }
        shared.forEach((partition, there) -> {
            if (sources.contains(partition.topic()) && !own.containsKey(partition)) {
                apart.add(partition + " at none alone, " + there.offset() + " shared");
            }
        });
        if (!apart.isEmpty()) {
            throw new PositionsApart("the view of " + ownGroup + " stands elsewhere than " + sharedGroup + " on " + apart);
        }
        if (!taken.isEmpty()) {
            admin.alterConsumerGroupOffsets(sharedGroup, taken).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        return readFrom;
    }

    /** An application whose close timed out may still commit: what is read now would not be its last position. */
    private static void requireEmpty(Admin admin, List<String> groups, Duration timeout)
        throws InterruptedException, ExecutionException, TimeoutException {
        List<String> running = new ArrayList<>();
        for (var group : admin.describeConsumerGroups(groups).describedGroups().entrySet()) {
            try {
                if (!group.getValue().get(timeout.toMillis(), TimeUnit.MILLISECONDS).members().isEmpty()) {
                    running.add(group.getKey());
                }
            } catch (ExecutionException e) {
                // A group that does not exist has no members.
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException)) {
                    throw e;
                }
            }
        }
        if (!running.isEmpty()) {
            throw new PositionsApart("groups " + running + " still have members");
        }
    }

    /**
     * The other way: the view's own group takes the shared group's positions on the view's topics ({@code viewTopic}),
     * so that its own application goes on where the shared one left it. Both groups are empty.
     */
    static void handBack(Admin admin, String sharedGroup, String ownGroup, java.util.function.Predicate<String> viewTopic,
                         Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        handBack(admin, sharedGroup, ownGroup, viewTopic, Map.of(), timeout);
    }

    /**
     * ... for a view that joined ahead of the shared application ({@link #handOverAhead}): where the shared group has
     * not reached the position the view joined at, {@code readFrom}, the view's state already holds what lies before
     * it, and its own application goes on from there.
     */
    static void handBack(Admin admin, String sharedGroup, String ownGroup, java.util.function.Predicate<String> viewTopic,
                         Map<String, Long> readFrom, Duration timeout)
        throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> given = new HashMap<>();
        committed(admin, sharedGroup, timeout).forEach((partition, there) -> {
            if (viewTopic.test(partition.topic())) {
                long from = readFrom.getOrDefault(partition.topic() + ":" + partition.partition(), there.offset());
                given.put(partition, from > there.offset() ? new OffsetAndMetadata(from)
                    : new OffsetAndMetadata(there.offset(), there.metadata()));
            }
        });
        if (!given.isEmpty()) {
            admin.alterConsumerGroupOffsets(ownGroup, given).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin, String group, Duration timeout)
        throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
            .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .forEach((partition, offset) -> {
                if (offset != null) {
                    committed.put(partition, offset);
                }
            });
        return committed;
    }

    /**
     * The view and the shared application stand at different offsets of a source both read, or one of them still
     * runs: it cannot move now.
     */
    static final class PositionsApart extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PositionsApart(String message) {
            super(message);
        }
    }
}
