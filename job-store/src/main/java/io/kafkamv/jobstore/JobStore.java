package io.kafkamv.jobstore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog and the jobs, kept on a compacted Kafka topic and mirrored in memory.
 *
 * <p>Every record is the full desired state of one object or job under its key ({@link JobStoreKeys});
 * a tombstone deletes it. Every instance tails the topic ({@link JobStoreLog}), so every instance sees
 * every job, in the tables of its {@link JobStoreMirror}. A write returns once this instance's mirror
 * has applied it, so a caller reads its own writes.
 */
public final class JobStore implements AutoCloseable {

    /** How many jobs of the cluster may backfill at once (ALTER SYSTEM SET); the others are queued. */
    public static final String MAX_CONCURRENT_CREATING_JOBS = "max_concurrent_creating_jobs";
    /**
     * {@link #MAX_CONCURRENT_CREATING_JOBS} unless set; 0 set is no limit. Measured with 100 views of 100,000 rows
     * created at once on a 2-core machine (issue 21): no limit 178 and 208 s, 8 at a time 118 and 146 s with a
     * quarter less CPU, 4 at a time 148 s, 2 at a time 223 s. Backfills beyond the cores mostly add commits and
     * contention; too few leave the cores idle while each job starts and is checked.
     */
    public static final int DEFAULT_MAX_CONCURRENT_CREATING_JOBS = 8;
    /**
     * Whether created views move into the shared Kafka Streams application (ALTER SYSTEM SET shared_views = on):
     * off unless set. See docs/concepts.md, "Many views on one instance".
     */
    public static final String SHARED_VIEWS = "shared_views";

    private static final Logger LOG = LoggerFactory.getLogger(JobStore.class);
    /** One for all stores: a mapper learns each class once, and {@link #warmUp} can teach it before the first CREATE. */
    private static final ObjectMapper JSON = mapper();
    private final JobStoreLog log;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final JobStoreMirror mirror = new JobStoreMirror(JSON, () -> listeners.forEach(JobStore::notifySafely));
    private final Map<String, CatalogEntry> objects = mirror.objects;
    private final Map<Long, Job> jobs = mirror.jobs;
    private final Map<Long, String> cancels = mirror.cancels;
    private final Map<Long, Long> rates = mirror.rates;
    private final Map<Long, StatementJob> statements = mirror.statements;
    private final Map<Long, StatementJob> ends = mirror.ends;
    private final Map<Long, StatementProgress> progress = mirror.progress;
    private final Map<String, JobStoreMirror.PagePlace> resultPages = mirror.resultPages;

    private JobStore(JobStoreLog log) {
        this.log = log;
    }

    /** Creates the topic if needed, reads it to the end and keeps following it. */
    public static JobStore open(Properties clientProperties, JobStoreTopic topic, Duration loadTimeout)
        throws InterruptedException {
        return over(KafkaJobStoreLog.open(clientProperties, topic), loadTimeout);
    }

    /** The store on {@code log}, read to its end and followed from then on; the store closes the log. */
    public static JobStore over(JobStoreLog log, Duration loadTimeout) throws InterruptedException {
        JobStore store = new JobStore(log);
        try {
            log.follow(store.mirror, loadTimeout);
        } catch (TimeoutException e) {
            store.close();
            throw new JobStoreException("The job store did not load within " + loadTimeout, e);
        }
        LOG.info("Job store {} loaded: {} objects, {} jobs", log.name(), store.objects.size(), store.jobs.size());
        return store;
    }

    public Collection<CatalogEntry> objects() {
        return List.copyOf(objects.values());
    }

    public Optional<CatalogEntry> object(String name) {
        return Optional.ofNullable(objects.get(name));
    }

    /** Every job, a cancelled one as CANCELLING whatever its own record says, with the rate limit ALTER set. */
    public Collection<Job> jobs() {
        return jobs.values().stream().map(this::withOwnRecords).toList();
    }

    public Optional<Job> job(long id) {
        return Optional.ofNullable(jobs.get(id)).map(this::withOwnRecords);
    }

    /**
     * Why this instance cannot read the latest record of the job, if it cannot (a newer kafka-mv wrote it): the job
     * {@link #job} returns is then an older state and must not be acted on.
     */
    public Optional<String> unreadable(long id) {
        return Optional.ofNullable(mirror.unreadableJobs.get(id));
    }

    /** The job with what lives in records of its own: a cancel, ALTER's rate limit, a pause (a rate limit of 0). */
    private Job withOwnRecords(Job job) {
        Long rate = paused(job.id()) && job.status() == JobStatus.CREATING ? Long.valueOf(0) : rates.get(job.id());
        Job current = rate == null ? job : job.withRateLimit(rate);
        String reason = cancels.get(job.id());
        return reason == null || current.status() == JobStatus.CANCELLING ? current
            : current.withStatus(JobStatus.CANCELLING, reason);
    }

    /** ALTER's backfill rate limit: a record of its own, so that no rewrite of the job's record from an older copy undoes it. */
    public void setRateLimit(long id, long recordsPerSecond) {
        write(JobStoreKeys.rate(id), Long.toString(recordsPerSecond).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * ALTER ... SET PARALLELISM: how many stream threads each instance gives the job, while it is created and after;
     * none goes back to the default.
     */
    public void setParallelism(long id, Integer threads) {
        write(JobStoreKeys.parallelism(id), threads == null ? null : threads.toString().getBytes(StandardCharsets.UTF_8));
    }

    public Optional<Integer> parallelism(long id) {
        return Optional.ofNullable(mirror.parallelisms.get(id));
    }

    /**
     * ALTER SOURCE s SET SOURCE_RATE_LIMIT: records per second every job reads the source at, while it backfills and
     * after; none lifts it. Kept by the source's name until the source is dropped.
     */
    public void setSourceRateLimit(String source, Long recordsPerSecond) {
        write(JobStoreKeys.sourceRate(source),
            recordsPerSecond == null ? null : recordsPerSecond.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Every source's SOURCE_RATE_LIMIT, by the source's name. */
    public Map<String, Long> sourceRateLimits() {
        return Map.copyOf(mirror.sourceRates);
    }

    /**
     * PAUSE JOB: the backfill stops where it is, keeping its progress, until {@link #resume}; the rate limit it had
     * applies again then (the job's record keeps the limit it was created with, ALTER's lives in its own record).
     */
    public void pause(long id) {
        write(JobStoreKeys.pause(id), Instant.now().toString().getBytes(StandardCharsets.UTF_8));
    }

    public void resume(long id) {
        write(JobStoreKeys.pause(id), null);
    }

    public boolean paused(long id) {
        return mirror.pauses.containsKey(id);
    }

    /** ALTER SYSTEM SET's setting of the whole cluster; a null value removes it (ALTER SYSTEM RESET). */
    public void putSetting(String name, String value) {
        write(JobStoreKeys.setting(name), value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    public Optional<String> setting(String name) {
        return Optional.ofNullable(mirror.settings.get(name));
    }

    /**
     * The jobs being created beyond the cluster's {@link #maxConcurrentCreatingJobs()} (none if it is 0), in
     * creation order after those that have read something: they wait until those before them are created or
     * cancelled. A paused job keeps its place.
     * Every instance reads the same log, so all agree which jobs wait.
     */
    public List<Long> queued() {
        int limit = maxConcurrentCreatingJobs();
        if (limit <= 0) {
            return List.of();
        }
        // Those that have read something first: a job released by what it waited for, older but not started,
        // must not stop one that runs.
        return jobs().stream().filter(job -> job.status() == JobStatus.CREATING)
            .sorted(Comparator.comparing((Job job) -> job.backfillOffsets().isEmpty()).thenComparingLong(Job::id))
            .map(Job::id).skip(limit).toList();
    }

    /** Whether created views move into the shared application ({@link #SHARED_VIEWS}). */
    public boolean sharedViews() {
        return setting(SHARED_VIEWS).map(Boolean::parseBoolean).orElse(false);
    }

    /** How many jobs of the cluster may be created at once: as set, else the default; 0 is no limit. */
    public int maxConcurrentCreatingJobs() {
        return setting(MAX_CONCURRENT_CREATING_JOBS).map(Integer::parseInt).orElse(DEFAULT_MAX_CONCURRENT_CREATING_JOBS);
    }

    /** The names of the objects a {@link JobStatus#WAITING} job still waits for, in the order it was accepted with. */
    public List<String> awaitedBy(Job job) {
        return job.waitsFor().stream()
            .map(this::job)
            .flatMap(Optional::stream)
            .filter(awaited -> awaited.status().isBeingCreated())
            .map(Job::objectName)
            .toList();
    }

    /** Every background statement accepted and not forgotten, ended if its end is committed. */
    public Collection<StatementJob> statements() {
        return statements.values().stream().map(this::withEnd).toList();
    }

    public Optional<StatementJob> statement(long id) {
        return Optional.ofNullable(statements.get(id)).map(this::withEnd);
    }

    /**
     * The statement as its end says, once there is one. The record of a statement accepted is written once and its
     * end in another record, so that the end can be written in the statement's transaction, apart from other writes.
     */
    private StatementJob withEnd(StatementJob accepted) {
        StatementJob end = ends.get(accepted.id());
        return end != null ? end : accepted;
    }

    public Optional<StatementProgress> progress(long id) {
        return Optional.ofNullable(progress.get(id));
    }

    /**
     * Why a job or statement was cancelled, if it was; also for a while after its records were removed, so that a
     * client waiting for it is told why however soon it was cleaned up.
     */
    public Optional<String> cancelled(long id) {
        return Optional.ofNullable(cancels.get(id)).or(() -> Optional.ofNullable(mirror.cancelledLately.get(id)));
    }

    /** Rows {@code page} of the result of statement {@code index} of a finished background statement. */
    public Optional<JsonNode> resultPage(long id, int index, int page) {
        JobStoreMirror.PagePlace place = resultPages.get(JobStoreKeys.rows(id, index, page));
        if (place == null) {
            return Optional.empty();
        }
        return log.read(place.partition(), place.offset()).map(value -> {
            try {
                return JSON.readTree(value);
            } catch (IOException e) {
                throw new JobStoreException("Cannot read result page " + JobStoreKeys.rows(id, index, page), e);
            }
        });
    }

    /** Records a statement as accepted; its end is written by {@link #finishRecord} in its run's transaction. */
    public void accept(StatementJob statement) {
        write(JobStoreKeys.statement(statement.id()), serialize(statement));
        LOG.info("Statement {} accepted -> RUNNING on {}", statement.id(), statement.owner());
    }

    public void put(StatementProgress report) {
        write(JobStoreKeys.progress(report.id()), serialize(report));
    }

    /** The record that finishes a statement, for its runner to write in the transaction of its writes. */
    public ProducerRecord<byte[], byte[]> finishRecord(StatementJob finished) {
        return log.recordOf(new JobStoreLog.Entry(JobStoreKeys.end(finished.id()), serialize(finished)));
    }

    /** A page of result rows, for the runner to write in the same transaction as {@link #finishRecord}. */
    public ProducerRecord<byte[], byte[]> resultPageRecord(long id, int index, int page, JsonNode rows) {
        return log.recordOf(new JobStoreLog.Entry(JobStoreKeys.rows(id, index, page), serialize(rows)));
    }

    /** Forgets a finished statement: its record first (so it is never shown without its pages), then the rest. */
    public void removeStatement(long id) {
        write(JobStoreKeys.statement(id), null);
        List<String> ended = new java.util.ArrayList<>(
            resultPages.keySet().stream().filter(key -> key.startsWith(JobStoreKeys.rowsOf(id))).toList());
        ended.add(JobStoreKeys.end(id));
        log.deleteTransactional(ended);
        write(JobStoreKeys.progress(id), null);
        write(JobStoreKeys.cancel(id), null);
    }

    /**
     * Returns once this instance has read every record written before the call, from any instance,
     * including transactions committed by then.
     */
    public void catchUp() {
        catchUpAppends();
        log.catchUpTransactions();
    }

    /**
     * Returns once this instance has read every record written before the call outside transactions: the catalog,
     * jobs, cancels. Unlike {@link #catchUp} it does not wait for a background statement's open transaction.
     */
    public void catchUpAppends() {
        write(JobStoreKeys.JOB_ID_CLAIM, new byte[0]);
    }

    /** Cancels a job for good: from now on it is CANCELLING everywhere, whatever is written to it later. */
    public void cancel(long id, String reason) {
        write(JobStoreKeys.cancel(id), reason.getBytes(StandardCharsets.UTF_8));
        LOG.info("Job {} ({}) -> CANCELLING: {}", id, Optional.ofNullable(jobs.get(id)).map(Job::objectName)
            .orElse(statements.containsKey(id) ? "background statement" : "?"), reason);
    }

    /**
     * Cancels a job and frees its object's name in one write, the cancel first: if the name is free, the job is
     * cancelled, whatever fails in between (two writes in the other order could free the name and leave the job
     * running with no object, out of reach of CANCEL and DROP). The job's cleanup removes what is left.
     */
    public void cancelAndFree(long id, String objectName, String reason) {
        log.append(List.of(new JobStoreLog.Entry(JobStoreKeys.cancel(id), reason.getBytes(StandardCharsets.UTF_8)),
            new JobStoreLog.Entry(JobStoreKeys.object(objectName), null)));
        LOG.info("Job {} ({}) -> CANCELLING, its name free: {}", id, objectName, reason);
    }

    /**
     * Cancels a job being created, with its object's name freed in the same write while the name is still the job's
     * ({@link #cancelAndFree}); a name already taken by another create is left to it.
     */
    public void cancelCreate(Job job, String reason) {
        if (object(job.objectName()).filter(entry -> entry.jobId() == job.id()).isPresent()) {
            cancelAndFree(job.id(), job.objectName(), reason);
        } else {
            cancel(job.id(), reason);
        }
    }

    /** The views that run in the shared Kafka Streams application, as the newest generation read says. */
    public SharedMembers sharedMembers() {
        return mirror.sharedMembers;
    }

    /**
     * Writes the next generation of the shared application's members, one newer than what this instance read, and says
     * whether it took: another instance may have written that generation first, and its record then holds on every
     * instance. Ours is then written over with it, so that the log's last record, all that compaction keeps, is the
     * one that holds.
     */
    public boolean putSharedMembers(SharedMembers next) {
        write(JobStoreKeys.SHARED_MEMBERS, serialize(next));
        SharedMembers holding = mirror.sharedMembers;
        if (!holding.equals(next)) {
            write(JobStoreKeys.SHARED_MEMBERS, serialize(holding));
            return false;
        }
        return true;
    }

    /** Says that {@code instanceId} is alive, or that it stopped. */
    public void heartbeat(String instanceId, boolean stopped) {
        heartbeat(instanceId, stopped, null);
    }

    /** Says that {@code instanceId} is alive, or that it stopped, and which created jobs it has restored whole. */
    public void heartbeat(String instanceId, boolean stopped, Set<Long> hydrated) {
        write(JobStoreKeys.instance(instanceId),
            serialize(new InstanceHeartbeat(instanceId, stopped, Instant.now(), hydrated)));
    }

    /** The latest heartbeat read here of every instance that ever wrote one. */
    public Map<String, LastHeard> heard() {
        return Map.copyOf(mirror.instances);
    }

    /** The latest heartbeat of an instance read here; none for an instance that never wrote one (or an older version). */
    public Optional<LastHeard> lastHeard(String instanceId) {
        return Optional.ofNullable(mirror.instances.get(instanceId));
    }

    /** Why this instance cannot read the job store right now, if it cannot: it is then not ready for clients. */
    public Optional<String> readProblem() {
        return log.readProblem();
    }

    /** Called on the tailer thread after each batch of changes, from this or any other instance. */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    /**
     * A job id no other writer on any instance gets, higher than every id before it: the id of a claim record
     * ({@link JobStoreMirror#claimedId}), so that ids stay unique after a restore that does not keep offsets.
     */
    public long allocateJobId() {
        // Waiting until this instance has read its claim back also brings its catalog up to date with
        // every write before it, from any instance: the statement is compiled against that catalog.
        return mirror.claimedId(write(JobStoreKeys.JOB_ID_CLAIM, new byte[0]));
    }

    /** Writes a change to an object that exists (a new status); use {@link #create} for a new one. */
    public void put(CatalogEntry entry) {
        write(JobStoreKeys.object(entry.name()), serialize(entry));
    }

    /**
     * Creates an object, unless another create of the same name came first, from any instance.
     * The store's single partition orders all writes, and every instance keeps the first create of
     * a name until it is dropped, so all agree on the winner; the loser gets false and must undo
     * what it made.
     */
    public boolean create(CatalogEntry entry) {
        put(entry);
        return wonOrRestated(entry);
    }

    /**
     * Whether {@code entry}'s create won; if not, writes the winner's entry again: compaction keeps the last record
     * of a name only, which would otherwise be the loser's, and an instance started after it would load that.
     */
    private boolean wonOrRestated(CatalogEntry entry) {
        Optional<CatalogEntry> current = object(entry.name());
        if (current.filter(winner -> JobStoreMirror.sameObject(winner, entry)).isPresent()) {
            return true;
        }
        current.ifPresent(winner -> {
            LOG.info("Create of {} (job {}) lost to job {}; restating the winner", entry.name(), entry.jobId(),
                winner.jobId());
            put(winner);
        });
        return false;
    }

    /**
     * Writes a job, as it applies after the latest record this instance has read ({@link Job#after}): a caller's
     * copy may be older. A removed job stays removed. The instance that changes a job's status logs it, so each
     * change is one line in the cluster's logs.
     */
    public void put(Job job) {
        if (mirror.removedJobs.contains(job.id())) {
            LOG.info("Not writing removed job {} ({})", job.id(), job.objectName());
            return;
        }
        Job previous = jobs.get(job.id());
        Job merged = job.after(previous);
        write(JobStoreKeys.job(job.id()), serialize(merged));
        logChange(previous == null ? null : previous.status(), merged);
    }

    /**
     * Accepts a new job and creates the object it makes, in one round trip (a background CREATE waits
     * for it): the job first, so that the object never names a job that is not there. False, as for
     * {@link #create}, when another create of the name came first; the caller then cancels the job.
     */
    public boolean acceptJob(Job job, CatalogEntry entry) {
        log.append(List.of(new JobStoreLog.Entry(JobStoreKeys.job(job.id()), serialize(job)),
            new JobStoreLog.Entry(JobStoreKeys.object(entry.name()), serialize(entry))));
        logChange(null, job);
        return wonOrRestated(entry);
    }

    private static void logChange(JobStatus before, Job job) {
        if (before != job.status()) {
            LOG.info("Job {} ({}) {} -> {}{}", job.id(), job.objectName(), before == null ? "accepted" : before,
                job.status(), job.failure() == null ? "" : ": " + job.failure());
        }
    }

    public void removeObject(String name) {
        write(JobStoreKeys.object(name), null);
    }

    public void removeJob(long id) {
        String object = Optional.ofNullable(jobs.get(id)).map(Job::objectName).orElse("?");
        write(JobStoreKeys.job(id), null);
        write(JobStoreKeys.cancel(id), null);
        write(JobStoreKeys.rate(id), null);
        write(JobStoreKeys.pause(id), null);
        write(JobStoreKeys.parallelism(id), null);
        LOG.info("Job {} ({}) removed: cancelled and cleaned up, or its object dropped", id, object);
    }

    private long write(String key, byte[] value) {
        return log.append(List.of(new JobStoreLog.Entry(key, value)));
    }

    private static void notifySafely(Runnable listener) {
        try {
            listener.run();
        } catch (RuntimeException e) {
            LOG.warn("A job store listener failed", e);
        }
    }

    private byte[] serialize(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new JobStoreException("Cannot serialize " + value, e);
        }
    }

    /**
     * Puts a job with this plan and a catalog entry through the stores' JSON mapping, without writing
     * anything: Jackson introspects a class on first use, which the first CREATE would otherwise wait for.
     */
    public static void warmUp(JsonNode plan) {
        try {
            Instant now = Instant.now();
            Job job = new Job(0, "warm_up", "", plan, true, JobStatus.CREATING, null, Map.of("t:0", 0L),
                Map.of("t:0", 1L), Map.of(), 0, null, -1, now, now);
            JSON.readValue(JSON.writeValueAsBytes(job), Job.class);
            CatalogEntry entry = new CatalogEntry("warm_up", ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATING, "", 0,
                JSON.createObjectNode(), now);
            JSON.readValue(JSON.writeValueAsBytes(entry), CatalogEntry.class);
        } catch (IOException e) {
            throw new JobStoreException("Cannot warm up the job store's JSON mapping", e);
        }
    }

    /** The JSON mapping of catalog entries and jobs, for the REST API to show them as stored. */
    public static ObjectMapper mapper() {
        return new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    @Override
    public void close() {
        log.close();
    }
}
