package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.kafkamv.jobstore.Job;
import io.kafkamv.jobstore.JobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A foreground job is wanted only while its client waits for it, connected to the instance that accepted the job (its
 * owner). When that instance is gone, so is the client, and the job is cancelled, as RisingWave cancels a foreground
 * job whose session ends. To tell, every instance writes a heartbeat to the job store every {@link #BEAT}, and says
 * when it stops; each cancels its own foreground jobs left from before a restart, and those of an instance that said
 * it stopped or has not been heard from for {@link #SILENCE}.
 */
public final class ForegroundJobWatch implements AutoCloseable {

    static final Duration BEAT = Duration.ofSeconds(5);
    /** Long enough for a garbage collection pause or a slow job-store write to pass, short against a backfill. */
    static final Duration SILENCE = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(ForegroundJobWatch.class);

    private final JobStore store;
    private final String instanceId;
    private final LongSupplier nanoClock;
    /** Two threads: a check waiting on the job store must not hold back the heartbeat. */
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "foreground-job-watch");
        thread.setDaemon(true);
        return thread;
    });

    /** The created jobs this instance has restored whole, said in each heartbeat; none until its runner says. */
    private volatile java.util.function.Supplier<java.util.Set<Long>> hydrated = java.util.Set::of;
    /** Set once this instance has said it stopped: no beat may say it is alive after that. */
    private boolean stopped;

    ForegroundJobWatch(JobStore store, String instanceId, LongSupplier nanoClock) {
        this.store = store;
        this.instanceId = instanceId;
        this.nanoClock = nanoClock;
    }

    /**
     * Says this instance is alive (before it takes clients, so that no foreground job of its own is older than its
     * first heartbeat), cancels what its clients left when it last stopped, and watches the other instances.
     */
    public static ForegroundJobWatch start(JobStore store, String instanceId) {
        ForegroundJobWatch watch = new ForegroundJobWatch(store, instanceId, System::nanoTime);
        store.heartbeat(instanceId, false, Set.of());
        for (Job job : store.jobs()) {
            if (watch.waitedFor(job) && instanceId.equals(job.owner())) {
                LOG.info("Cancelling foreground job {} ({}): its client was lost when this instance stopped",
                    job.id(), job.objectName());
                store.cancelCreate(job, "client connection lost");
            }
        }
        long period = BEAT.toMillis();
        watch.timer.scheduleAtFixedRate(() -> watch.safely(watch::beat), period, period, TimeUnit.MILLISECONDS);
        watch.timer.scheduleWithFixedDelay(() -> watch.safely(watch::cancelJobsOfGoneInstances), period, period,
            TimeUnit.MILLISECONDS);
        return watch;
    }

    /**
     * Says this instance is alive, with the created jobs it has restored whole as they are now. The one writer of the
     * heartbeat: the set is read as it is written, so that a set read earlier never overwrites a later one.
     */
    public synchronized void beat() {
        if (!stopped) {
            store.heartbeat(instanceId, false, hydrated.get());
        }
    }

    /** Where the heartbeats read which created jobs this instance has restored whole (its runner's). */
    public void reportHydration(java.util.function.Supplier<java.util.Set<Long>> hydratedJobs) {
        this.hydrated = hydratedJobs;
    }

    private void safely(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.warn("Foreground job watch: {}", e.toString());
        }
    }

    /** Cancels the foreground jobs whose owner said it stopped or has been silent for {@link #SILENCE}. */
    void cancelJobsOfGoneInstances() {
        boolean caughtUp = false;
        for (Job seen : store.jobs()) {
            if (!waitedFor(seen) || seen.owner() == null || seen.owner().equals(instanceId) || !gone(seen.owner())) {
                continue;
            }
            if (!caughtUp) {
                // Every instance watches: once one has cancelled the job, the others should see that rather than free
                // the job's name again, which by then another CREATE may have taken. This narrows that race to the
                // moment between reading and writing; it does not close it (a name's tombstone is not conditional),
                // as for two users cancelling one job at once.
                store.catchUpAppends();
                caughtUp = true;
            }
            store.job(seen.id()).filter(job -> waitedFor(job) && gone(job.owner())).ifPresent(job -> {
                String why = store.lastHeard(job.owner()).orElseThrow().stopped() ? "stopped" : "has not been heard from for "
                    + SILENCE.toSeconds() + " s";
                LOG.info("Cancelling foreground job {} ({}): instance {}, where its client waited, {}", job.id(),
                    job.objectName(), job.owner(), why);
                store.cancelCreate(job, "client connection lost: the instance it was connected to " + why);
            });
        }
    }

    /** An instance that never wrote a heartbeat may be of a version before them: it is left alone. */
    private boolean gone(String instance) {
        return store.lastHeard(instance)
            .filter(heard -> heard.stopped() || nanoClock.getAsLong() - heard.readAtNanos() > SILENCE.toNanos())
            .isPresent();
    }

    /** A foreground job being created, whose latest record this instance can read (else it may be long created). */
    private boolean waitedFor(Job job) {
        return !job.background() && job.status().isBeingCreated() && store.unreadable(job.id()).isEmpty();
    }

    /** Stops watching and says this instance stopped, so that the others cancel what its clients were waiting for. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
            synchronized (this) {
                stopped = true;
                store.heartbeat(instanceId, true);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("Could not say in the job store that this instance stopped: {}", e.toString());
        }
    }
}
