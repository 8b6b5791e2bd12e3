package io.kafkamv.service.jobs;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.kafkamv.compiler.runtime.EvaluationErrors;
import io.kafkamv.jobstore.Job;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job's values it could not compute: counted for its metrics, and logged once per expression and
 * kind of error, so that a million rows dividing by zero make one line, not a million.
 */
final class CountedEvaluationErrors implements EvaluationErrors {

    private static final Logger LOG = LoggerFactory.getLogger(CountedEvaluationErrors.class);
    private static final int MAX_LOGGED_KINDS = 1_000;

    private final Job job;
    private final AtomicLong count = new AtomicLong();
    private final Set<String> loggedKinds = ConcurrentHashMap.newKeySet();

    CountedEvaluationErrors(Job job) {
        this.job = job;
    }

    @Override
    public void report(String stepId, String what, RuntimeException error) {
        count.incrementAndGet();
        String kind = stepId + "/" + what + "/" + error.getClass().getName();
        if (loggedKinds.size() < MAX_LOGGED_KINDS && loggedKinds.add(kind)) {
            LOG.warn("{} (job {}): {} could not be computed for a row ({}), so it is null there. Rows with this "
                + "problem are not logged again, only counted (kafkamv.view.evaluation.errors)",
                job.objectName(), job.id(), what, error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage());
        }
    }

    long count() {
        return count.get();
    }
}
