package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.plan.SinkOutput;
import io.kafkamv.compiler.plan.TableScanStep;
import io.kafkamv.compiler.runtime.HeldBackOffsets;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStatus;
import org.junit.jupiter.api.Test;

/** When a job has caught up, from the offsets Kafka would report ({@link JobOffsetsTestDouble}). */
class CatchUpRuleTest {

    private static final long JOB = 1002;
    private static final String INTERNAL = ViewRuntime.applicationId(JOB, 0) + "-";
    private static final String EXCHANGE = INTERNAL + "aggregate-exchange-repartition";
    private static final String CHANGELOG = INTERNAL + "partials" + HeldBackOffsets.CHANGELOG_SUFFIX;
    private static final Map<String, Long> TARGETS = Map.of("t:0", 100L, "t:1", 50L);

    private final JobOffsetsTestDouble offsets = new JobOffsetsTestDouble();
    private final CatchUpRule rule = new CatchUpRule(offsets);

    @Test
    void aJobHasCaughtUpOnlyWhenItsCommittedOffsetsReachEveryTarget() {
        offsets.committed.put("t:0", 100L);
        offsets.committed.put("t:1", 49L);
        assertThat(rule.caughtUp(job(view()), TARGETS)).isFalse();

        offsets.committed.put("t:1", 50L);
        assertThat(rule.caughtUp(job(view()), TARGETS)).isTrue();
    }

    @Test
    void aPartitionThatWasEmptyAtTheStartNeedsNoCommit() {
        offsets.committed.put("t:0", 100L);
        assertThat(rule.caughtUp(job(view()), Map.of("t:0", 100L, "t:1", 0L))).isTrue();
    }

    @Test
    void recordsHeldBackBeforeATargetAreWaitedFor() {
        allCommitted();
        offsets.internalTopics.add(CHANGELOG);
        offsets.heldBack = Optional.of(Map.of("t:0", 99L));
        assertThat(rule.caughtUp(job(view()), TARGETS)).isFalse();

        offsets.heldBack = Optional.of(Map.of("t:0", 100L));
        assertThat(rule.caughtUp(job(view()), TARGETS)).isTrue();
    }

    @Test
    void heldBackPartialsThatCannotBeReadYetAreNotTakenForNone() {
        allCommitted();
        offsets.internalTopics.add(CHANGELOG);
        offsets.heldBack = Optional.empty();

        assertThat(rule.caughtUp(job(view()), TARGETS)).isFalse();
    }

    @Test
    void recordsHeldBackFromAnExchangeAreAlwaysWaitedFor() {
        allCommitted();
        offsets.heldBack = Optional.of(Map.of(EXCHANGE + ":0", 1_000_000L));

        assertThat(rule.caughtUp(job(view()), TARGETS)).isFalse();
    }

    @Test
    void recordsHeldBackFromASourcePartitionAddedSinceTheJobBeganAreNotWaitedFor() {
        allCommitted();
        offsets.heldBack = Optional.of(Map.of("t:2", 0L));

        assertThat(rule.caughtUp(job(view()), TARGETS)).isTrue();
    }

    @Test
    void anExchangeMustBeDrainedUpToItsEndReadAfterTheHeldBackRecords() {
        allCommitted();
        offsets.internalTopics.add(EXCHANGE);
        offsets.ends.put(EXCHANGE + ":0", 40L);
        offsets.committed.put(EXCHANGE + ":0", 39L);
        assertThat(rule.caughtUp(job(view()), TARGETS)).isFalse();

        offsets.committed.put(EXCHANGE + ":0", 40L);
        assertThat(rule.caughtUp(job(view()), TARGETS)).isTrue();
        assertThat(offsets.calls).containsSubsequence("committed", "internalTopics", "heldBack", "ends [" + EXCHANGE + "]");
    }

    /** Inputs written all the time: the exchange's end moves on at every look, the barrier read once does not. */
    @Test
    void anExchangeWrittenAllTheTimeIsDrainedUpToItsEndWhenTheSourcesReachedTheTargets() {
        allCommitted();
        offsets.internalTopics.add(EXCHANGE);
        offsets.ends.put(EXCHANGE + ":0", 40L);
        offsets.committed.put(EXCHANGE + ":0", 30L);
        CatchUpRule.CatchUp catchUp = rule.toward(job(view()), TARGETS);
        assertThat(catchUp.reached()).isFalse();

        offsets.ends.put(EXCHANGE + ":0", 60L);
        offsets.committed.put(EXCHANGE + ":0", 45L);
        assertThat(catchUp.reached()).as("past the barrier of 40, though the end is 60 now").isTrue();
        assertThat(rule.caughtUp(job(view()), TARGETS)).as("asked afresh, the end of now is the barrier").isFalse();
    }

    @Test
    void everyLevelOfExchangesIsDrainedInItsOwnRound() {
        String second = INTERNAL + "join-exchange-repartition";
        allCommitted();
        offsets.internalTopics.add(EXCHANGE);
        offsets.internalTopics.add(second);
        offsets.ends.put(EXCHANGE + ":0", 40L);
        offsets.ends.put(second + ":0", 10L);
        offsets.committed.put(EXCHANGE + ":0", 40L);
        offsets.committed.put(second + ":0", 10L);
        CatchUpRule.CatchUp catchUp = rule.toward(job(view()), TARGETS);
        offsets.ends.put(second + ":0", 20L);
        // The first round's barrier is (40, 20): the second level is behind it.
        assertThat(catchUp.reached()).isFalse();

        offsets.committed.put(second + ":0", 20L);
        offsets.ends.put(second + ":0", 35L);
        // The first round is done; the second reads the barrier anew, after it: (40, 35).
        assertThat(catchUp.reached()).isFalse();

        offsets.committed.put(second + ":0", 35L);
        offsets.ends.put(second + ":0", 50L);
        assertThat(catchUp.reached()).as("two rounds for two exchanges; the end moving on is not waited for").isTrue();
    }

    @Test
    void recordsHeldBackFromAnExchangeBeforeTheBarrierItWasDrainedToAreWaitedFor() {
        allCommitted();
        offsets.internalTopics.add(EXCHANGE);
        offsets.ends.put(EXCHANGE + ":0", 40L);
        offsets.committed.put(EXCHANGE + ":0", 40L);
        offsets.heldBack = Optional.of(Map.of(EXCHANGE + ":0", 39L));
        CatchUpRule.CatchUp catchUp = rule.toward(job(view()), TARGETS);
        assertThat(catchUp.reached()).isFalse();

        offsets.heldBack = Optional.of(Map.of(EXCHANGE + ":0", 41L));
        assertThat(catchUp.reached()).isTrue();
    }

    @Test
    void aJdbcSinkHasCaughtUpWhenItsTableHasEveryChangeOfItsTopic() {
        allCommitted();
        offsets.ends.put("kmv-sink-orders:0", 7L);
        offsets.writtenToDatabase.put("kmv-sink-orders:0", 6L);
        assertThat(rule.caughtUp(job(jdbcSink()), TARGETS)).isFalse();
        assertThat(rule.caughtUp(job(view()), TARGETS)).as("a view has no table to wait for").isTrue();

        offsets.writtenToDatabase.put("kmv-sink-orders:0", 7L);
        assertThat(rule.caughtUp(job(jdbcSink()), TARGETS)).isTrue();
        // What the table has is read before the topic's end: a change written in between is then waited for.
        assertThat(offsets.calls.subList(offsets.calls.size() - 2, offsets.calls.size()))
            .containsExactly("writtenToDatabase", "ends [kmv-sink-orders]");
    }

    @Test
    void aJobWhosePlanThisVersionCannotReadIsWaitedForAsAView() {
        allCommitted();
        Job newer = job(view());
        ((ObjectNode) newer.plan()).put("version", 99).putArray("steps")
            .addObject().put("type", "stepOfTheFutureV1");

        assertThat(rule.caughtUp(newer, TARGETS)).isTrue();
    }

    private void allCommitted() {
        offsets.committed.putAll(TARGETS);
    }

    private static Job job(PhysicalPlan plan) {
        return new Job(JOB, "v", "CREATE MATERIALIZED VIEW v AS SELECT * FROM t", PlanJson.toTree(plan), true,
            JobStatus.CREATING, null,
            Map.of("t:0", 0L, "t:1", 0L), TARGETS, Map.of(), 0, "instance-1", -1, Instant.EPOCH, Instant.EPOCH);
    }

    private static PhysicalPlan view() {
        RowSchema schema = RowSchema.of(Column.of("id", SqlType.INTEGER));
        return PhysicalPlan.of("v", "kmv-view-v", "v", List.of(new TableScanStep("s0", "t", "t", schema, List.of(), true)));
    }

    private static PhysicalPlan jdbcSink() {
        return view().writtenTo(new SinkOutput("jdbc", "kmv-sink-orders", "json", SinkOutput.SinkType.UPSERT,
            List.of("id"), false, new SinkOutput.Jdbc("jdbc:postgresql://db/app", "orders", "app", null), Map.of()));
    }

    /** The offsets a test sets, in place of a Kafka cluster's; records the order it is asked in. */
    private static final class JobOffsetsTestDouble implements JobOffsets {

        final Map<String, Long> committed = new HashMap<>();
        final Map<String, Long> writtenToDatabase = new HashMap<>();
        final Set<String> internalTopics = new HashSet<>();
        final Map<String, Long> ends = new HashMap<>();
        Optional<Map<String, Long>> heldBack = Optional.of(Map.of());
        final List<String> calls = new ArrayList<>();

        @Override
        public Map<String, Long> committed(Job job) {
            calls.add("committed");
            return Map.copyOf(committed);
        }

        @Override
        public Map<String, Long> writtenToDatabase(long jobId) {
            calls.add("writtenToDatabase");
            return Map.copyOf(writtenToDatabase);
        }

        @Override
        public Set<String> internalTopics(Job job) {
            calls.add("internalTopics");
            return Set.copyOf(internalTopics);
        }

        @Override
        public Map<String, Long> ends(Collection<String> topics) {
            calls.add("ends " + topics);
            Map<String, Long> of = new HashMap<>();
            ends.forEach((partition, end) -> {
                if (topics.contains(partition.substring(0, partition.lastIndexOf(':')))) {
                    of.put(partition, end);
                }
            });
            return of;
        }

        @Override
        public Optional<Map<String, Long>> heldBack(Collection<String> changelogs) {
            calls.add("heldBack");
            return heldBack;
        }
    }
}
