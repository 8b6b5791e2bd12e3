package io.kafkamv.jobstore;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compacted topic that holds every catalog entry and job.
 *
 * <p>Partition 0 keeps a single order of changes for all instances to read. Partition 1 holds what
 * background statements write in their transactions (their ends and result pages): a transaction open
 * there holds back no other write. Compaction keeps the latest desired state of each object, so a reader
 * at start sees the whole catalog without history.
 * Unclean leader election stays off: a lost write here would lose an accepted job.
 */
public final class JobStoreTopic {

    /** The partitions the store uses: see the class comment. */
    static final int PARTITIONS = 2;

    private static final Logger LOG = LoggerFactory.getLogger(JobStoreTopic.class);

    private final String name;
    private final short replicationFactor;
    private final int minInSyncReplicas;

    public JobStoreTopic(String name, short replicationFactor, int minInSyncReplicas) {
        if (replicationFactor < 1 || minInSyncReplicas < 1 || minInSyncReplicas > replicationFactor) {
            throw new IllegalArgumentException("Need 1 <= min.insync.replicas (" + minInSyncReplicas
                + ") <= replication factor (" + replicationFactor + ")");
        }
        this.name = name;
        this.replicationFactor = replicationFactor;
        this.minInSyncReplicas = minInSyncReplicas;
    }

    public String name() {
        return name;
    }

    /** Creates the topic if it is missing; an existing topic is kept as it is, with a partition added if it has one. */
    public void ensureExists(Admin admin) throws InterruptedException {
        NewTopic topic = new NewTopic(name, Optional.of(PARTITIONS), Optional.of(replicationFactor))
            .configs(Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, String.valueOf(minInSyncReplicas),
                TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false"));
        try {
            admin.createTopics(List.of(topic)).all().get();
            LOG.info("Created job store topic {} (replication factor {}, min.insync.replicas {})",
                name, replicationFactor, minInSyncReplicas);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new JobStoreException("Cannot create the job store topic " + name, e.getCause());
            }
            verifyCompacted(admin);
            addPartitionsOfEarlierVersions(admin);
        }
    }

    /** A store written by a version before partition 1 existed gets it; its records on partition 0 stay readable. */
    private void addPartitionsOfEarlierVersions(Admin admin) throws InterruptedException {
        try {
            int partitions = admin.describeTopics(List.of(name)).allTopicNames().get().get(name).partitions().size();
            if (partitions < PARTITIONS) {
                admin.createPartitions(Map.of(name, NewPartitions.increaseTo(PARTITIONS))).all().get();
                LOG.info("Added a partition to job store topic {} for background statements' transactions", name);
            }
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof InvalidPartitionsException)) {
                throw new JobStoreException("Cannot add a partition to the job store topic " + name, e.getCause());
            }
            // Another instance added it first.
        }
    }

    private void verifyCompacted(Admin admin) throws InterruptedException {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, name);
        try {
            Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
            String policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
            if (!policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
                throw new JobStoreException("The job store topic " + name + " exists with cleanup.policy="
                    + policy + "; it must be compacted, or jobs would expire", null);
            }
        } catch (ExecutionException e) {
            throw new JobStoreException("Cannot read the configuration of topic " + name, e.getCause());
        }
    }
}
