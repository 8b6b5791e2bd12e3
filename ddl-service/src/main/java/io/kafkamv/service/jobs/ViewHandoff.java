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
        // An application whose close timed out may still commit: what is read now would not be its last position.
        List<String> running = new ArrayList<>();
        var described = admin.describeConsumerGroups(List.of(ownGroup, sharedGroup)).describedGroups();
        for (var group : described.entrySet()) {
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
        Map<TopicPartition, OffsetAndMetadata> own = committed(admin, ownGroup, timeout);
        Map<TopicPartition, OffsetAndMetadata> shared = committed(admin, sharedGroup, timeout);
        shared.keySet().removeIf(partition -> !sharedSources.contains(partition.topic()));
        List<String> apart = new ArrayList<>();
        shared.forEach((partition, there) -> {
            if (sources.contains(partition.topic())) {
                OffsetAndMetadata here = own.get(partition);
                if (here == null || here.offset() != there.offset()) {
                    apart.add(partition + " at " + (here == null ? "none" : here.offset()) + " alone, " + there.offset() + " shared");
                }
            }
        });
        if (!apart.isEmpty()) {
            throw new PositionsApart("the view of " + ownGroup + " stands elsewhere than " + sharedGroup + " on " + apart);
        }
        Map<TopicPartition, OffsetAndMetadata> taken = new HashMap<>();
        own.forEach((partition, here) -> {
            if (!shared.containsKey(partition)) {
                taken.put(partition, new OffsetAndMetadata(here.offset()));
            }
        });
        if (!taken.isEmpty()) {
            admin.alterConsumerGroupOffsets(sharedGroup, taken).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * The other way: the view's own group takes the shared group's positions on the view's topics ({@code viewTopic}),
     * so that its own application goes on where the shared one left it. Both groups are empty.
     */
    static void handBack(Admin admin, String sharedGroup, String ownGroup, java.util.function.Predicate<String> viewTopic,
                         Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> given = new HashMap<>();
        committed(admin, sharedGroup, timeout).forEach((partition, there) -> {
            if (viewTopic.test(partition.topic())) {
                given.put(partition, new OffsetAndMetadata(there.offset()));
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
