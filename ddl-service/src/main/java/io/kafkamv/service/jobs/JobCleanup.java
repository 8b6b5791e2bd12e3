package io.kafkamv.service.jobs;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import io.kafkamv.compiler.plan.PlanOutputTopics;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStore;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes what a cancelled or dropped job made in the cluster: its topics (its internal ones, and its
 * output when it owns it: a view's changelog, a JDBC sink's topic, never a Kafka sink's), its consumer
 * groups, and then its catalog entry and its job record. Each step is idempotent; a step that cannot be done yet
 * (another instance still runs the job) is left for the next round.
 */
final class JobCleanup {

    private static final Logger LOG = LoggerFactory.getLogger(JobCleanup.class);

    private final JobStore store;
    private final Admin admin;

    JobCleanup(JobStore store, Admin admin) {
        this.store = store;
        this.admin = admin;
    }

    /** Deletes the job's groups and topics, then its records; the caller has stopped it on this instance. */
    void cleanUp(Job job) {
        if (removeLeftovers(job)) {
            Optional<CatalogEntry> entry = store.object(job.objectName()).filter(object -> object.jobId() == job.id());
            entry.ifPresent(object -> store.removeObject(object.name()));
            store.removeJob(job.id());
        }
    }

    /**
     * Deletes the job's consumer groups, then its topics: whether true. The groups go first, because they can only
     * be deleted once no instance runs the job any more; topics deleted while one still did would be made again
     * by its next rebalance (review finding 13). A topic another cleaner deleted first is fine.
     */
    boolean removeLeftovers(Job job) {
        Optional<String> ownTopic = PlanOutputTopics.of(job.plan()).owned();
        try {
            for (int generation = 0; generation <= job.generation(); generation++) {
                deleteGroup(ViewRuntime.applicationId(job.id(), generation));
            }
            deleteGroup(ViewRuntime.jdbcGroupId(job.id()));
            // Every generation's topics begin with the first one's application id.
            String prefix = ViewRuntime.applicationId(job.id(), 0) + "-";
            deleteTopics(topic -> topic.startsWith(prefix) || ownTopic.filter(topic::equals).isPresent());
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupNotEmptyException) {
                LOG.info("Job {}: waiting for other instances to stop it before deleting its group", job.id());
            } else {
                LOG.warn("Cleaning up job {} failed; retrying: {}", job.id(), e.getCause().toString());
            }
        } catch (TimeoutException e) {
            LOG.warn("Cleaning up job {} timed out; retrying", job.id());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * Deletes the consumer groups and topics of the generations before the job's (see {@link Job#withGeneration}),
     * once its current one has caught up: by then no instance runs an earlier one. Transactions an earlier generation
     * left open on its group's offsets are aborted first ({@link HangingTransactions#abortLeftBy}). Whether done.
     */
    boolean removeEarlierGenerations(Job job) {
        try {
            for (int generation = 0; generation < job.generation(); generation++) {
                int earlier = generation;
                abortLeftBy(job, earlier);
                deleteGroup(ViewRuntime.applicationId(job.id(), earlier));
                deleteTopics(topic -> ViewRuntime.isInternalTopicOf(topic, job.id(), earlier));
            }
            return true;
        } catch (ExecutionException e) {
            LOG.info("Job {}: the state of its earlier generations is not deleted yet: {}", job.id(), e.getCause().toString());
        } catch (TimeoutException e) {
            LOG.info("Job {}: deleting the state of its earlier generations timed out", job.id());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /** A failure here leaves the transactions open, and does not hold back the rest of the cleanup. */
    private void abortLeftBy(Job job, int generation) throws InterruptedException {
        try {
            List<HangingTransactions.Open> aborted = HangingTransactions.abortLeftBy(admin,
                ViewRuntime.applicationId(job.id(), generation), PlanOutputTopics.of(job.plan()).owned().stream().toList());
            if (!aborted.isEmpty()) {
                LOG.info("Job {}: aborted the transactions its generation {} left open: {}", job.id(), generation,
                    aborted);
            }
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("Job {}: the transactions its generation {} left open are not known, and stay open if there are "
                + "any: {}", job.id(), generation, e.toString());
        }
    }

    private void deleteTopics(java.util.function.Predicate<String> which)
            throws ExecutionException, InterruptedException, TimeoutException {
        Set<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream().filter(which)
            .collect(Collectors.toSet());
        for (var deletion : admin.deleteTopics(topics).topicNameValues().entrySet()) {
            try {
                deletion.getValue().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        }
    }

    private void deleteGroup(String groupId) throws ExecutionException, InterruptedException, TimeoutException {
        try {
            admin.deleteConsumerGroups(List.of(groupId)).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                throw e;
            }
        }
    }
}
