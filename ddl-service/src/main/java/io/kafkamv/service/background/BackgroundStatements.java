package io.kafkamv.service.background;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.StatementJob;
import io.kafkamv.jobstore.StatementProgress;
import io.kafkamv.jobstore.StatementStatus;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.statement.ScriptRunner;
import io.kafkamv.service.statement.StatementExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs scripts of queries and DML in the background ({@code POST /v1/statements?async=true}).
 *
 * <p>A script is persisted in the job store before it is acknowledged, and each run of it is one
 * Kafka transaction ({@link StatementRun}): a run that dies leaves nothing behind, and the next
 * run starts over. This instance resumes its own unfinished statements when it starts, and takes
 * over any other one whose progress has not changed for {@link #TAKEOVER_AFTER} (measured on this
 * instance's clock, so clock skew between hosts does not matter). A run that breaks off (a broker
 * away) is tried again after that long, and given up as FAILED after {@link #MAX_ATTEMPTS}.
 *
 * <p>An instance runs at most {@link #MAX_RUNNING} statements at once (each holds a thread, a transactional
 * producer and a query engine connection); those accepted beyond wait here for a slot, unless another instance
 * with room takes them over first, and a submit finding {@link #MAX_WAITING} waiting is refused.
 */
public final class BackgroundStatements implements AutoCloseable {

    static final Duration TAKEOVER_AFTER = Duration.ofSeconds(30);
    static final int MAX_ATTEMPTS = 3;
    static final int MAX_RUNNING = Math.max(2, Runtime.getRuntime().availableProcessors());
    static final int MAX_WAITING = 32;
    /** How long a finished statement and its result stay to be fetched; DELETE forgets one sooner. */
    static final Duration RESULT_RETENTION = Duration.ofHours(24);

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundStatements.class);

    /** A statement's progress as this instance last saw it change. */
    private record Seen(Optional<StatementProgress> progress, Instant at) {
    }

    private final StatementExecutor executor;
    private final ScriptRunner scripts;
    private final JobStore store;
    private final Properties clientProperties;
    private final String instanceId;
    private final Set<Long> runningHere = ConcurrentHashMap.newKeySet();
    /** Statements accepted here waiting for a slot, in order of acceptance; guarded by {@code this}. */
    private final java.util.LinkedHashSet<Long> waitingHere = new java.util.LinkedHashSet<>();
    private final Map<Long, Seen> seen = new ConcurrentHashMap<>();
    private final Map<Long, Instant> retryAfter = new ConcurrentHashMap<>();
    private final Map<Long, Integer> attempts = new ConcurrentHashMap<>();
    private final ExecutorService runs;
    private final ScheduledExecutorService timers;
    private volatile boolean resumedOwn;
    private volatile boolean closing;

    public BackgroundStatements(StatementExecutor executor, JobStore store, Properties clientProperties, String instanceId) {
        this.executor = executor;
        this.scripts = new ScriptRunner(executor);
        this.store = store;
        this.clientProperties = clientProperties;
        this.instanceId = instanceId;
        AtomicInteger threads = new AtomicInteger();
        this.runs = Executors.newCachedThreadPool(runnable -> daemon(runnable, "background-statement-" + threads.incrementAndGet()));
        this.timers = Executors.newScheduledThreadPool(2, runnable -> daemon(runnable, "background-statements"));
    }

    /** Resumes this instance's unfinished statements, and from then on adopts those nobody runs. */
    public BackgroundStatements start() {
        timers.scheduleWithFixedDelay(this::adoptSafely, 0, StatementRun.HEARTBEAT.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /**
     * Checks every statement of the script (a typo is reported now, with its position in the script),
     * persists it, and starts it here. Returns the accepted statement.
     */
    public StatementJob submit(String script, Map<String, String> session) {
        scripts.checkBackgroundable(script);
        synchronized (this) {
            if (waitingHere.size() >= MAX_WAITING) {
                throw SqlError.at(SqlState.CONFIGURATION_LIMIT_EXCEEDED, "this instance already has " + waitingHere.size()
                    + " background statements waiting to run, the most it accepts", 0,
                    "try again once some have ended: SHOW JOBS lists them; another instance may have room");
            }
        }
        StatementJob accepted = StatementJob.accepted(store.allocateJobId(), script, session, instanceId);
        store.accept(accepted);
        launch(accepted);
        return accepted;
    }

    private void adoptSafely() {
        try {
            adopt();
        } catch (RuntimeException e) {
            LOG.warn("Looking for background statements to run failed; trying again", e);
        }
    }

    private void adopt() {
        boolean first = !resumedOwn;
        resumedOwn = true;
        Instant now = Instant.now();
        Set<Long> running = new java.util.HashSet<>();
        for (StatementJob statement : store.statements()) {
            if (statement.status() != StatementStatus.RUNNING) {
                forgetIfExpired(statement, now);
                continue;
            }
            long id = statement.id();
            running.add(id);
            Optional<StatementProgress> progress = store.progress(id);
            Seen before = seen.get(id);
            if (before == null || !before.progress().equals(progress)) {
                seen.put(id, new Seen(progress, now));
            }
            if (runningHere.contains(id) || isWaitingHere(id) || retryAfter.getOrDefault(id, Instant.MIN).isAfter(now)) {
                continue;
            }
            boolean ours = first && instanceId.equals(progress.map(StatementProgress::instance).orElse(statement.owner()));
            boolean silent = seen.get(id).at().plus(TAKEOVER_AFTER).isBefore(now);
            if (ours || silent && runningHere.size() < MAX_RUNNING) {
                launch(statement);
            }
        }
        seen.keySet().retainAll(running);
    }

    /** Results stay in the job store's topic until they are fetched and deleted, or for {@link #RESULT_RETENTION}. */
    private void forgetIfExpired(StatementJob statement, Instant now) {
        if (statement.finishedAt() != null && statement.finishedAt().plus(RESULT_RETENTION).isBefore(now)) {
            store.removeStatement(statement.id());
            LOG.info("Statement {} forgotten: it ended more than {} h ago", statement.id(), RESULT_RETENTION.toHours());
        }
    }

    private synchronized boolean isWaitingHere(long id) {
        return waitingHere.contains(id);
    }

    /** Runs the statement here now, or once a slot is free. */
    private synchronized void launch(StatementJob statement) {
        if (closing || runningHere.contains(statement.id())) {
            return;
        }
        if (runningHere.size() >= MAX_RUNNING) {
            waitingHere.add(statement.id());
            return;
        }
        waitingHere.remove(statement.id());
        runningHere.add(statement.id());
        runs.execute(() -> {
            try {
                StatementRun run = new StatementRun(statement, executor, scripts, store, clientProperties, instanceId, timers,
                    () -> closing);
                int attempt = attempts.merge(statement.id(), 1, Integer::sum);
                StatementRun.Outcome outcome = attempt > MAX_ATTEMPTS
                    ? run.giveUp("gave up after " + MAX_ATTEMPTS + " runs that broke off; see this instance's log")
                    : run.run();
                if (outcome == StatementRun.Outcome.BROKE_OFF && !closing) {
                    retryAfter.put(statement.id(), Instant.now().plus(TAKEOVER_AFTER));
                    LOG.error("Statement {}: run {} broke off and left nothing behind; it runs again in {} s",
                        statement.id(), attempt, TAKEOVER_AFTER.toSeconds(), run.cause());
                } else if (outcome != StatementRun.Outcome.BROKE_OFF) {
                    attempts.remove(statement.id());
                    retryAfter.remove(statement.id());
                }
            } catch (RuntimeException e) {
                // Whatever went wrong, this instance waits before it tries the statement again: a run launched
                // again at once would fence the live run of another instance every time.
                retryAfter.put(statement.id(), Instant.now().plus(TAKEOVER_AFTER));
                LOG.error("Statement {}: its run here failed; it is tried again in {} s", statement.id(),
                    TAKEOVER_AFTER.toSeconds(), e);
            } finally {
                runningHere.remove(statement.id());
                launchNextWaiting();
            }
        });
    }

    /** The oldest statement waiting here, unless it ended or another instance took it over meanwhile. */
    private synchronized void launchNextWaiting() {
        while (!waitingHere.isEmpty() && runningHere.size() < MAX_RUNNING) {
            long id = waitingHere.iterator().next();
            waitingHere.remove(id);
            Optional<StatementJob> statement = store.statement(id).filter(current -> current.status() == StatementStatus.RUNNING);
            boolean takenOver = store.progress(id).map(StatementProgress::instance).filter(other -> !other.equals(instanceId))
                .isPresent();
            if (statement.isPresent() && !takenOver) {
                launch(statement.get());
            }
        }
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Stops every run here without ending its statement: this instance resumes them when it starts again. */
    @Override
    public void close() {
        closing = true;
        timers.shutdownNow();
        runs.shutdownNow();
        try {
            if (!runs.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("Background statements still running at shutdown: {}", runningHere);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
