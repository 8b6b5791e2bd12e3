package io.kafkamv.service.jobs;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.kafkamv.compiler.plan.PlanOutputTopics;
import io.kafkamv.compiler.runtime.HeldBackOffsets;
import io.kafkamv.jobstore.Job;

/**
 * Whether a job has processed its sources up to given offsets: the one rule behind a view becoming
 * visible (up to the end offsets taken when it was created) and behind FLUSH (up to the ends now).
 *
 * <p>Committed source offsets alone only say that the first sub-topology is done. A job has caught up
 * when its committed offsets reach every target; its partial aggregates hold back no record before a
 * target; the records its exchanges (repartition topics) got from those are processed, level by level; and,
 * for a JDBC sink, its table has every change of its topic up to then.
 *
 * <p>With inputs written all the time, an exchange's end moves on forever, so the rule never compares with the
 * ends of the moment: it follows one job's way to its targets across polls ({@link CatchUp}). Once the committed
 * source offsets reach the targets (and no partial holds back a record before them), every record derived from
 * the records before the targets is in the exchanges, written in the same transaction as the commit: their ends
 * read then are a barrier that stays fixed. Once the committed exchange offsets reach it, the next level's derived
 * records are in the exchanges, and the next barrier is read; as many rounds as there are exchanges cover every
 * level. A partial aggregate fed by an exchange holds back nothing that matters once it holds only records at or
 * after the barrier its exchange was drained to.
 */
final class CatchUpRule {

    private final JobOffsets offsets;

    CatchUpRule(JobOffsets offsets) {
        this.offsets = offsets;
    }

    /** The job's way to the targets, to be asked again and again until it has reached them. */
    CatchUp toward(Job job, Map<String, Long> targets) {
        return new CatchUp(job, targets);
    }

    /** Whether the job has caught up, asked once: the barriers are read now. */
    boolean caughtUp(Job job, Map<String, Long> targets) {
        return toward(job, targets).reached();
    }

    final class CatchUp {
        private final Job job;
        private final Map<String, Long> targets;
        private int roundsDone;
        private Map<String, Long> barrier;
        private final Map<String, Long> drainedTo = new java.util.HashMap<>();
        private Map<String, Long> sinkBarrier;

        private CatchUp(Job job, Map<String, Long> targets) {
            this.job = job;
            this.targets = Map.copyOf(targets);
        }

        Job job() {
            return job;
        }

        Map<String, Long> targets() {
            return targets;
        }

        boolean reached() {
            Map<String, Long> committed = offsets.committed(job);
            if (!BackfillProgress.of(job.startOffsets(), targets, committed).done()) {
                return false;
            }
            try {
                // The job's own topics, named after its application id: the held-back offsets' changelogs and the exchanges.
                Set<String> internal = offsets.internalTopics(job);
                List<String> changelogs = internal.stream()
                    .filter(topic -> topic.endsWith(HeldBackOffsets.CHANGELOG_SUFFIX)).toList();
                List<String> exchanges = internal.stream().filter(topic -> topic.endsWith("-repartition")).toList();
                while (roundsDone < exchanges.size()) {
                    if (barrier == null) {
                        // Held-back records are read before the exchanges' ends: partials flushed in between are then
                        // in those ends.
                        if (!nothingHeldBack(changelogs, false)) {
                            return false;
                        }
                        barrier = offsets.ends(exchanges);
                    }
                    if (!covers(committed, barrier)) {
                        return false;
                    }
                    drainedTo.putAll(barrier);
                    barrier = null;
                    roundsDone++;
                    committed = offsets.committed(job);
                }
                if (!nothingHeldBack(changelogs, true)) {
                    return false;
                }
                Optional<String> databaseSink = PlanOutputTopics.of(job.plan()).databaseSink();
                if (databaseSink.isEmpty()) {
                    return true;
                }
                // What the table has is read before the topic's end: a change written in between is then waited for.
                Map<String, Long> written = offsets.writtenToDatabase(job.id());
                if (sinkBarrier == null) {
                    sinkBarrier = offsets.ends(List.of(databaseSink.get()));
                }
                return covers(written, sinkBarrier);
            } catch (ExecutionException | TimeoutException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        /**
         * Whether the job's partial aggregates (see {@link HeldBackOffsetsReader}) hold back no record before the
         * targets on its sources (the committed offsets count such records as read although the aggregates do
         * not have them yet), nor, from an exchange, before the barrier that exchange was drained to. An exchange
         * not drained yet is waited for only at the end: before, its records are a later round's.
         */
        private boolean nothingHeldBack(List<String> changelogs, boolean atTheEnd) {
            Optional<Map<String, Long>> heldBack = offsets.heldBack(changelogs);
            String internalPrefix = ViewRuntime.applicationId(job) + "-";
            return heldBack.isPresent() && heldBack.get().entrySet().stream().allMatch(first -> {
                String input = first.getKey();
                if (targets.containsKey(input)) {
                    return first.getValue() >= targets.get(input);
                }
                if (!input.startsWith(internalPrefix)) {
                    // A source partition added since the job began: nothing to wait for.
                    return true;
                }
                Long drained = drainedTo.get(input);
                return drained == null ? !atTheEnd : first.getValue() >= drained;
            });
        }
    }

    /** Whether {@code positions} reach every end; an empty partition (end 0) needs no position. */
    private static boolean covers(Map<String, Long> positions, Map<String, Long> ends) {
        return ends.entrySet().stream().allMatch(end -> end.getValue() == 0
            || positions.getOrDefault(end.getKey(), -1L) >= end.getValue());
    }
}
