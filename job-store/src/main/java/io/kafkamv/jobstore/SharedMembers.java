package io.kafkamv.jobstore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The created views that run together in the shared Kafka Streams application, by job id in the order they joined it
 * (the order numbers the application's tasks, and so where their local state is), and the generation of that list.
 * Every change of members is a new generation; a record of a generation not newer than the one read is ignored, so
 * that of two instances changing the members at once the first in the log wins on every instance. See
 * docs/concepts.md, "Many views on one instance".
 */
public record SharedMembers(int generation, List<Long> jobs, Map<Long, Map<String, Long>> readFrom) {

    /** No view runs in the shared application: what a job store without such a record holds. */
    public static final SharedMembers NONE = new SharedMembers(0, List.of());

    /**
     * @param readFrom where a member's reading of the topics it shares with the members before it begins, by job id
     *                 and {@code topic:partition}: it joined with what came before already in its state (absent in
     *                 records of kafka-mv before it; see {@code TopologyFactory.PrefixedPlan})
     */
    public SharedMembers {
        jobs = List.copyOf(jobs);
        Map<Long, Map<String, Long>> copied = new HashMap<>();
        if (readFrom != null) {
            readFrom.forEach((job, offsets) -> copied.put(job, Map.copyOf(offsets)));
        }
        readFrom = Map.copyOf(copied);
    }

    public SharedMembers(int generation, List<Long> jobs) {
        this(generation, jobs, Map.of());
    }

    /** The next generation, with {@code joining} after the members there are. */
    public SharedMembers joinedBy(Collection<Long> joining) {
        return joinedBy(joining, Map.of());
    }

    /** The next generation, with {@code joining} after the members there are, reading from {@code from} on. */
    public SharedMembers joinedBy(Collection<Long> joining, Map<Long, Map<String, Long>> from) {
        List<Long> next = new ArrayList<>(jobs);
        joining.stream().filter(id -> !jobs.contains(id)).forEach(next::add);
        Map<Long, Map<String, Long>> nextFrom = new HashMap<>(readFrom);
        from.forEach((job, offsets) -> {
            if (!offsets.isEmpty()) {
                nextFrom.put(job, offsets);
            }
        });
        return new SharedMembers(generation + 1, next, nextFrom);
    }

    /** The next generation, without {@code leaving}. */
    public SharedMembers leftBy(Collection<Long> leaving) {
        Map<Long, Map<String, Long>> nextFrom = new HashMap<>(readFrom);
        nextFrom.keySet().removeAll(leaving);
        return new SharedMembers(generation + 1, jobs.stream().filter(id -> !leaving.contains(id)).toList(), nextFrom);
    }

    /** Where the member's reading of shared topics begins, by {@code topic:partition}; empty for everything read. */
    public Map<String, Long> readFrom(long jobId) {
        return readFrom.getOrDefault(jobId, Map.of());
    }

    public boolean contains(long jobId) {
        return jobs.contains(jobId);
    }
}
