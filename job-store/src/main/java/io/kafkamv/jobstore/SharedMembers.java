package io.kafkamv.jobstore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The created views that run together in the shared Kafka Streams application, by job id in the order they joined it
 * (the order numbers the application's tasks, and so where their local state is), and the generation of that list.
 * Every change of members is a new generation; a record of a generation not newer than the one read is ignored, so
 * that of two instances changing the members at once the first in the log wins on every instance. See
 * docs/concepts.md, "Many views on one instance".
 */
public record SharedMembers(int generation, List<Long> jobs) {

    /** No view runs in the shared application: what a job store without such a record holds. */
    public static final SharedMembers NONE = new SharedMembers(0, List.of());

    public SharedMembers {
        jobs = List.copyOf(jobs);
    }

    /** The next generation, with {@code joining} after the members there are. */
    public SharedMembers joinedBy(Collection<Long> joining) {
        List<Long> next = new ArrayList<>(jobs);
        joining.stream().filter(id -> !jobs.contains(id)).forEach(next::add);
        return new SharedMembers(generation + 1, next);
    }

    /** The next generation, without {@code leaving}. */
    public SharedMembers leftBy(Collection<Long> leaving) {
        return new SharedMembers(generation + 1, jobs.stream().filter(id -> !leaving.contains(id)).toList());
    }

    public boolean contains(long jobId) {
        return jobs.contains(jobId);
    }
}
