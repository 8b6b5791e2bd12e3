package io.kafkamv.service.jobs;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.AbortTransactionOptions;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersOptions;
import org.apache.kafka.clients.admin.DescribeProducersResult;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.DescribeTransactionsOptions;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Transactions a Kafka Streams application's producers have open on its partitions, as the partitions' leaders and
 * the transaction coordinators see them. A transaction open on a changelog holds the changelog's restore below it, and
 * one with offsets of the application's group holds the fetch of the group's committed offsets: a job held by one
 * makes no progress.
 *
 * <p>The coordinator ends every transaction it knows: it commits or aborts it, or aborts it once it is older than its
 * timeout (10 s for Kafka Streams). One a partition has open while its coordinator is not in it on that partition is
 * hanging: nothing will end it. That was seen after kill -9 of a service with an embedded broker while a job committed:
 * the restarted broker's coordinator completed the commit (it said the producer was Empty two epochs later) and two of
 * the job's partitions never got its markers. The restarted broker's coordinator had tried to send markers before the
 * broker listened; that this lost them is a reading of the logs, not proven.
 *
 * <p>A producer is told to be the application's by its transactional id, as its coordinator lists it now: a
 * transaction left by an earlier producer id of the same transactional id (Kafka 4's transactions bump the epoch at
 * every commit, and the id changes when the epoch runs out) is not seen.
 */
final class HangingTransactions {

    /** The states in which the coordinator will still end the transaction of the producer. */
    private static final Set<TransactionState> ENDING = EnumSet.of(TransactionState.ONGOING,
        TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT, TransactionState.PREPARE_EPOCH_FENCE,
        TransactionState.UNKNOWN);
    private static final long TIMEOUT_SECONDS = 10;
    /** Every call's own deadline, so that the calls of one look end together and leave nothing behind. */
    private static final int TIMEOUT_MS = (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS);
    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);

    private HangingTransactions() {
    }

    /** A transaction a partition has open: its producer, where it begins, and what its coordinator says of it. */
    record Open(TopicPartition partition, long producerId, int producerEpoch, long firstOffset, int coordinatorEpoch,
                String coordinatorState, boolean coordinatorEndsIt) {

        /** The same transaction seen twice has the same key. */
        String key() {
            return partition + "/" + producerId + "/" + producerEpoch + "/" + firstOffset;
        }

        @Override
        public String toString() {
            return partition + " from offset " + firstOffset + " by producer " + producerId + " epoch " + producerEpoch
                + " (coordinator: " + coordinatorState + ")";
        }
    }

    /**
     * The transactions the producers of Kafka Streams application {@code applicationId} have open on
     * {@code partitions} and on the partition of the application's group offsets. A partition that cannot be described
     * (deleted meanwhile) is left out; a producer its coordinator does not list cannot be told to be the application's
     * and is left out too.
     */
    static List<Open> on(Admin admin, Collection<TopicPartition> partitions, String applicationId)
        throws InterruptedException, ExecutionException, TimeoutException {
        Set<TopicPartition> asked = new HashSet<>(partitions);
        offsetsPartition(admin, applicationId).ifPresent(asked::add);
        List<Open> open = openOn(admin, asked);
        if (open.isEmpty()) {
            return open;
        }
        // Kafka Streams' transactional ids under exactly_once_v2: <application id>-<process id>-<thread index>. Another
        // generation's application id only begins the same way (kmv-job-5-g1-...): a UUID must follow.
        Pattern ownIds = Pattern.compile(Pattern.quote(applicationId) + "-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}-\\d+");
        Map<Long, String> transactionalIds = admin.listTransactions(new ListTransactionsOptions()
                .filterProducerIds(open.stream().map(Open::producerId).collect(Collectors.toSet())).timeoutMs(TIMEOUT_MS))
            .all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
            .filter(listing -> ownIds.matcher(listing.transactionalId()).matches())
            .collect(Collectors.toMap(TransactionListing::producerId, TransactionListing::transactionalId,
                (first, second) -> first));
        if (transactionalIds.isEmpty()) {
            return List.of();
        }
        Map<String, TransactionDescription> described = admin.describeTransactions(transactionalIds.values(),
            new DescribeTransactionsOptions().timeoutMs(TIMEOUT_MS)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        List<Open> own = new ArrayList<>();
        for (Open candidate : open) {
            String transactionalId = transactionalIds.get(candidate.producerId());
            TransactionDescription coordinator = transactionalId == null ? null : described.get(transactionalId);
            if (coordinator != null) {
                boolean endsIt = ENDING.contains(coordinator.state())
                    && coordinator.topicPartitions().contains(candidate.partition());
                own.add(new Open(candidate.partition(), candidate.producerId(), candidate.producerEpoch(),
                    candidate.firstOffset(), candidate.coordinatorEpoch(),
                    transactionalId + " " + coordinator.state() + " epoch " + coordinator.producerEpoch(), endsIt));
            }
        }
        // A transaction that ended while its coordinator was asked is not one: its partitions are asked again.
        Set<String> stillOpen = openOn(admin, own.stream().map(Open::partition).collect(Collectors.toSet())).stream()
            .map(Open::key).collect(Collectors.toSet());
        return own.stream().filter(o -> stillOpen.contains(o.key())).toList();
    }

    /**
     * Those of {@code now} that nothing will end: seen open before ({@code before}, at least several transaction
     * timeouts earlier), and not in a transaction their coordinator is ending.
     */
    static List<Open> hanging(List<Open> before, List<Open> now) {
        Set<String> seen = before.stream().map(Open::key).collect(Collectors.toSet());
        return now.stream().filter(open -> !open.coordinatorEndsIt() && seen.contains(open.key())).toList();
    }

    /**
     * Aborts the transactions that the producers of {@code applicationId}, a Kafka Streams application no instance
     * runs any more, left open on its group's offsets and on {@code topics} (topics that outlive it: a view's own
     * topic): nothing else would end them, a read-committed reader stops below one, and a partition of the broker's
     * offsets is not compacted past one. What {@code kafka-transactions.sh abort} does.
     */
    static List<Open> abortLeftBy(Admin admin, String applicationId, Collection<String> topics)
        throws InterruptedException, ExecutionException, TimeoutException {
        List<TopicPartition> partitions = new ArrayList<>();
        if (!topics.isEmpty()) {
            admin.describeTopics(topics, new DescribeTopicsOptions().timeoutMs(TIMEOUT_MS)).topicNameValues()
                .forEach((topic, description) -> {
                    try {
                        description.get(TIMEOUT_SECONDS, TimeUnit.SECONDS).partitions()
                            .forEach(partition -> partitions.add(new TopicPartition(topic, partition.partition())));
                    } catch (ExecutionException | TimeoutException e) {
                        LOG.info("The partitions of {} are not known: {}", topic, e.toString());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
        }
        List<Open> left = on(admin, partitions, applicationId).stream().filter(open -> !open.coordinatorEndsIt())
            .toList();
        abort(admin, left);
        return left;
    }

    /** Writes an abort marker for each transaction on its partition. */
    static void abort(Admin admin, Collection<Open> open)
        throws InterruptedException, ExecutionException, TimeoutException {
        for (Open transaction : open) {
            admin.abortTransaction(new AbortTransactionSpec(transaction.partition(), transaction.producerId(),
                (short) transaction.producerEpoch(), transaction.coordinatorEpoch()),
                new AbortTransactionOptions().timeoutMs(TIMEOUT_MS)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static List<Open> openOn(Admin admin, Set<TopicPartition> partitions) throws InterruptedException {
        DescribeProducersResult result = admin.describeProducers(partitions,
            new DescribeProducersOptions().timeoutMs(TIMEOUT_MS));
        List<Open> open = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        for (TopicPartition partition : partitions) {
            PartitionProducerState state;
            try {
                state = result.partitionResult(partition).get(Math.max(0, deadline - System.nanoTime()),
                    TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                LOG.info("The producers of {} are not known: {}", partition, e.toString());
                continue;
            }
            for (ProducerState producer : state.activeProducers()) {
                if (producer.currentTransactionStartOffset().isPresent()) {
                    open.add(new Open(partition, producer.producerId(), producer.producerEpoch(),
                        producer.currentTransactionStartOffset().getAsLong(), producer.coordinatorEpoch().orElse(-1),
                        "not known", false));
                }
            }
        }
        return open;
    }

    /** Where the broker keeps {@code group}'s offsets; none before any group has had offsets. */
    private static Optional<TopicPartition> offsetsPartition(Admin admin, String group)
        throws InterruptedException, ExecutionException, TimeoutException {
        int count;
        try {
            count = admin.describeTopics(List.of(Topic.GROUP_METADATA_TOPIC_NAME),
                    new DescribeTopicsOptions().timeoutMs(TIMEOUT_MS)).allTopicNames()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(Topic.GROUP_METADATA_TOPIC_NAME).partitions().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
        return Optional.of(new TopicPartition(Topic.GROUP_METADATA_TOPIC_NAME, Utils.abs(group.hashCode()) % count));
    }
}
