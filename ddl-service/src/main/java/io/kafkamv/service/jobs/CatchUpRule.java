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
 * target, and none read from an exchange; its exchanges (repartition topics) are drained; and, for a
 * JDBC sink, its table has every change of its topic. Held-back records are read before the
 * exchanges' ends: partials flushed in between are then in those ends, which the offsets committed
 * before do not cover yet, so they are waited for.
 */
final class CatchUpRule {

    private final JobOffsets offsets;

    CatchUpRule(JobOffsets offsets) {
        this.offsets = offsets;
    }

    boolean caughtUp(Job job, Map<String, Long> targets) {
        Map<String, Long> committed = offsets.committed(job.id());
        if (!BackfillProgress.of(job.startOffsets(), targets, committed).done()) {
            return false;
        }
        try {
            // The job's own topics, named after its application id: the held-back offsets' changelogs and the exchanges.
            Set<String> internal = offsets.internalTopics(job.id());
            List<String> changelogs = internal.stream()
                .filter(topic -> topic.endsWith(HeldBackOffsets.CHANGELOG_SUFFIX)).toList();
            if (!nothingHeldBack(job, targets, changelogs)) {
                return false;
            }
            List<String> exchanges = internal.stream().filter(topic -> topic.endsWith("-repartition")).toList();
            if (!reached(committed, offsets.ends(exchanges))) {
                return false;
            }
            Optional<String> databaseSink = PlanOutputTopics.of(job.plan()).databaseSink();
            return databaseSink.isEmpty()
                || reached(offsets.writtenToDatabase(job.id()), offsets.ends(List.of(databaseSink.get())));
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Whether the job's partial aggregates (see {@link HeldBackOffsetsReader}) hold back no record before
     * {@code targets} on its sources: the committed offsets count such records as read although the
     * aggregates do not have them yet. Records held back from an exchange are always waited for.
     */
    private boolean nothingHeldBack(Job job, Map<String, Long> targets, List<String> changelogs) {
        Optional<Map<String, Long>> heldBack = offsets.heldBack(changelogs);
        String internalPrefix = ViewRuntime.applicationId(job.id()) + "-";
        return heldBack.isPresent() && heldBack.get().entrySet().stream().allMatch(first -> {
            String input = first.getKey();
            if (!targets.containsKey(input)) {
                // An exchange's partition, or a source partition added since the job began (nothing to wait for).
                return !input.startsWith(internalPrefix);
            }
            return first.getValue() >= targets.get(input);
        });
    }

    /** Whether {@code positions} reach every end; an empty partition (end 0) needs no position. */
    private static boolean reached(Map<String, Long> positions, Map<String, Long> ends) {
        return ends.entrySet().stream().allMatch(end -> end.getValue() == 0
            || positions.getOrDefault(end.getKey(), -1L) >= end.getValue());
    }
}
