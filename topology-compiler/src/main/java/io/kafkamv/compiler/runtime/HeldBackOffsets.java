package io.kafkamv.compiler.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a task's held-back partials (partial aggregates that have not gone to their groups' partitions
 * yet) hold back:
 * for each input partition (as {@code topic:partition}), the offset of the first record folded
 * since the last flush. A task keeps it in a store of its own whose changelog commits with the
 * task's offsets, so the last committed value of each changelog partition says exactly which input
 * records the committed offsets count as read but the aggregates do not have yet.
 */
public final class HeldBackOffsets {

    /**
     * The changelog topics of these stores end so, after the application id and the step id. "pending" is
     * the idea's first name, kept because running jobs' stores and topics are named with it.
     */
    public static final String CHANGELOG_SUFFIX = "-pending-changelog";

    public static final String KEY = "first-offsets";

    private HeldBackOffsets() {
    }

    public static String storeName(String stepId) {
        return stepId + "-pending";
    }

    public static String encode(Map<String, Long> firstOffsets) {
        return firstOffsets.entrySet().stream()
            .map(entry -> entry.getKey() + "=" + entry.getValue())
            .collect(Collectors.joining("\n"));
    }

    /** The first held-back offset per input partition; empty when nothing is held back. */
    public static Map<String, Long> decode(String value) {
        Map<String, Long> firstOffsets = new LinkedHashMap<>();
        if (value == null || value.isEmpty()) {
            return firstOffsets;
        }
        for (String line : value.split("\n")) {
            int equals = line.lastIndexOf('=');
            firstOffsets.put(line.substring(0, equals), Long.parseLong(line.substring(equals + 1)));
        }
        return firstOffsets;
    }
}
