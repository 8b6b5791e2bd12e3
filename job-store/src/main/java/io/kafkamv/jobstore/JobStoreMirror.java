package io.kafkamv.jobstore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this instance has read of the job store's log, one typed table per kind of record: catalog
 * entries, jobs, cancels, background statements, their progress and their result pages, instances' heartbeats. Written only
 * by the log's reader; read from any thread.
 */
final class JobStoreMirror implements JobStoreLog.Reader {

    /** Job ids start here, so that they read like the ids users know from RisingWave. */
    static final long FIRST_JOB_ID = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(JobStoreMirror.class);

    final Map<String, CatalogEntry> objects = new ConcurrentHashMap<>();
    final Map<Long, Job> jobs = new ConcurrentHashMap<>();
    final Map<Long, String> cancels = new ConcurrentHashMap<>();
    /**
     * Why the jobs removed lately were cancelled: a client waiting for a job is told why, however soon its cleanup
     * removed the cancel. The latest few hundred are plenty for that.
     */
    final Map<Long, String> cancelledLately = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
            return size() > 500;
        }
    });
    final Map<Long, Long> rates = new ConcurrentHashMap<>();
    final Map<Long, Integer> parallelisms = new ConcurrentHashMap<>();
    final Map<String, Long> sourceRates = new ConcurrentHashMap<>();
    /** Paused jobs, each with when PAUSE was written. */
    final Map<Long, String> pauses = new ConcurrentHashMap<>();
    final Map<String, String> settings = new ConcurrentHashMap<>();
    /** Jobs whose latest record this version could not read (a newer one wrote it), with why. */
    final Map<Long, String> unreadableJobs = new ConcurrentHashMap<>();
    /** Jobs removed since this mirror started reading: a late rewrite of one must not bring it back. */
    final Set<Long> removedJobs = ConcurrentHashMap.newKeySet();
    /** Objects dropped since this mirror started reading, by {@link #identity}: a late restatement must not revive one. */
    private final Set<String> droppedObjects = ConcurrentHashMap.newKeySet();
    final Map<Long, StatementJob> statements = new ConcurrentHashMap<>();
    /** Statements' ends, by the statement's id: read from another partition than the statements, in any order with them. */
    final Map<Long, StatementJob> ends = new ConcurrentHashMap<>();
    final Map<Long, StatementProgress> progress = new ConcurrentHashMap<>();
    /** Where each result page is in the log: pages can be tens of MB a statement, every instance mirrors the log. */
    final Map<String, PagePlace> resultPages = new ConcurrentHashMap<>();

    /** The shared application's members: the newest generation read, whatever was written after it (see SharedMembers). */
    volatile SharedMembers sharedMembers = SharedMembers.NONE;

    /** Each instance's latest heartbeat, as read here. */
    final Map<String, LastHeard> instances = new ConcurrentHashMap<>();

    /** Where a record is in the log, to read it again from there. */
    record PagePlace(int partition, long offset) {
    }

    private final ObjectMapper json;
    private final Runnable onBatch;
    /** The highest job id any record read so far names or was claimed; read and written by the log's reader. */
    private long highestJobId = FIRST_JOB_ID - 1;
    /** The ids of the latest claims by offset, for {@link #claimedId}; older ones are long collected. */
    private final Map<Long, Long> recentClaims = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
            return size() > 10_000;
        }
    });

    JobStoreMirror(ObjectMapper json, Runnable onBatch) {
        this.json = json;
        this.onBatch = onBatch;
    }

    /** Whether two entries are states of one object rather than two creates of one name. */
    static boolean sameObject(CatalogEntry a, CatalogEntry b) {
        return a.jobId() == b.jobId() && Objects.equals(a.createdAt(), b.createdAt()) && a.kind() == b.kind();
    }

    @Override
    public void batchApplied() {
        onBatch.run();
    }

    /**
     * The job id of the claim record at {@code offset}, once this mirror has read it: {@code FIRST_JOB_ID +
     * offset}, or more where a restored copy of the log (which packs records at lower offsets) names higher
     * ids. Every instance reads the same log in the same order, so all give a claim the same id, and each
     * claim's id is higher than every id before it.
     */
    long claimedId(long offset) {
        Long id = recentClaims.get(offset);
        if (id == null) {
            throw new JobStoreException("No job id claim at offset " + offset + " was read", null);
        }
        return id;
    }

    @Override
    public void apply(String key, byte[] value, int partition, long offset) {
        if (key.equals(JobStoreKeys.JOB_ID_CLAIM)) {
            highestJobId = Math.max(FIRST_JOB_ID + offset, highestJobId + 1);
            recentClaims.put(offset, highestJobId);
            return;
        }
        try {
            noteJobIdOf(key);
            if (key.startsWith(JobStoreKeys.OBJECT)) {
                applyObject(key.substring(JobStoreKeys.OBJECT.length()), value);
            } else if (key.startsWith(JobStoreKeys.CANCEL)) {
                long id = JobStoreKeys.id(key, JobStoreKeys.CANCEL);
                if (value == null && cancels.containsKey(id)) {
                    cancelledLately.put(id, cancels.get(id));
                }
                put(cancels, id, value == null ? null : new String(value, StandardCharsets.UTF_8));
            } else if (key.startsWith(JobStoreKeys.RATE)) {
                put(rates, JobStoreKeys.id(key, JobStoreKeys.RATE),
                    value == null ? null : Long.valueOf(new String(value, StandardCharsets.UTF_8)));
            } else if (key.startsWith(JobStoreKeys.PARALLELISM)) {
                put(parallelisms, JobStoreKeys.id(key, JobStoreKeys.PARALLELISM),
                    value == null ? null : Integer.valueOf(new String(value, StandardCharsets.UTF_8)));
            } else if (key.startsWith(JobStoreKeys.SOURCE_RATE)) {
                put(sourceRates, key.substring(JobStoreKeys.SOURCE_RATE.length()),
                    value == null ? null : Long.valueOf(new String(value, StandardCharsets.UTF_8)));
            } else if (key.startsWith(JobStoreKeys.PAUSE)) {
                put(pauses, JobStoreKeys.id(key, JobStoreKeys.PAUSE),
                    value == null ? null : new String(value, StandardCharsets.UTF_8));
            } else if (key.startsWith(JobStoreKeys.SETTING)) {
                put(settings, key.substring(JobStoreKeys.SETTING.length()),
                    value == null ? null : new String(value, StandardCharsets.UTF_8));
            } else if (key.startsWith(JobStoreKeys.STATEMENT)) {
                put(statements, JobStoreKeys.id(key, JobStoreKeys.STATEMENT), read(value, StatementJob.class));
            } else if (key.startsWith(JobStoreKeys.END)) {
                put(ends, JobStoreKeys.id(key, JobStoreKeys.END), read(value, StatementJob.class));
            } else if (key.startsWith(JobStoreKeys.PROGRESS)) {
                put(progress, JobStoreKeys.id(key, JobStoreKeys.PROGRESS), read(value, StatementProgress.class));
            } else if (key.startsWith(JobStoreKeys.ROWS)) {
                put(resultPages, key, value == null ? null : new PagePlace(partition, offset));
            } else if (key.startsWith(JobStoreKeys.INSTANCE)) {
                InstanceHeartbeat beat = read(value, InstanceHeartbeat.class);
                put(instances, key.substring(JobStoreKeys.INSTANCE.length()),
                    beat == null ? null : new LastHeard(beat.stopped(), System.nanoTime(), beat.hydrated()));
            } else if (key.equals(JobStoreKeys.SHARED_MEMBERS)) {
                SharedMembers members = read(value, SharedMembers.class);
                if (members != null && members.generation() > sharedMembers.generation()) {
                    sharedMembers = members;
                }
            } else if (key.startsWith(JobStoreKeys.JOB)) {
                applyJobRecord(JobStoreKeys.id(key, JobStoreKeys.JOB), value, offset);
            } else {
                LOG.warn("Skipping job store record with unknown key {} at offset {}", key, offset);
            }
        } catch (IOException | NumberFormatException e) {
            // A record this version cannot read (e.g. written by a newer one) must not stop the others.
            LOG.error("Skipping unreadable job store record {} at offset {}: {}", key, offset, e.toString());
        }
    }

    /** Raises {@link #highestJobId} to the id a job's record names in its key. */
    private void noteJobIdOf(String key) {
        for (String prefix : List.of(JobStoreKeys.JOB, JobStoreKeys.CANCEL, JobStoreKeys.STATEMENT, JobStoreKeys.END,
            JobStoreKeys.PROGRESS)) {
            if (key.startsWith(prefix)) {
                highestJobId = Math.max(highestJobId, JobStoreKeys.id(key, prefix));
                return;
            }
        }
    }

    /**
     * A job's record; one this version cannot read leaves the job's last readable record in place but marks it as not
     * current, so that nothing acts on it as if it were.
     */
    private void applyJobRecord(long id, byte[] value, long offset) {
        Job job;
        try {
            job = read(value, Job.class);
        } catch (IOException e) {
            unreadableJobs.put(id, e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse(""));
            LOG.error("Job {}: its record at offset {} cannot be read by this version (written by a newer one?); this "
                + "instance leaves the job alone until it can read one: {}", id, offset, e.toString());
            return;
        }
        unreadableJobs.remove(id);
        applyJob(id, job, offset);
    }

    /** A job's record as it applies after the one before ({@link Job#after}); none after its removal. */
    private void applyJob(long id, Job job, long offset) {
        if (job == null) {
            jobs.remove(id);
            removedJobs.add(id);
        } else if (removedJobs.contains(id)) {
            LOG.info("Ignoring a write of removed job {} ({}) at offset {}", id, job.objectName(), offset);
        } else {
            jobs.put(id, job.after(jobs.get(id)));
        }
    }

    /** What tells one create of a name from another. */
    private static String identity(CatalogEntry entry) {
        return entry.name() + "/" + entry.jobId() + "/" + entry.createdAt() + "/" + entry.kind();
    }

    /**
     * The first create of a name wins on every instance, until the object is dropped. The loser restates the
     * winner ({@link JobStore#create}), so that the last record of the name, which is all compaction keeps, is
     * the winner's.
     */
    private void applyObject(String name, byte[] value) throws IOException {
        if (value == null) {
            CatalogEntry dropped = objects.remove(name);
            if (dropped != null) {
                droppedObjects.add(identity(dropped));
            }
            return;
        }
        CatalogEntry entry = json.readValue(value, CatalogEntry.class);
        highestJobId = Math.max(highestJobId, entry.jobId());
        CatalogEntry existing = objects.get(name);
        if (existing == null) {
            if (droppedObjects.contains(identity(entry))) {
                LOG.info("Ignoring a late write of dropped object {} (job {})", name, entry.jobId());
            } else {
                objects.put(name, entry);
            }
        } else if (!sameObject(existing, entry)) {
            LOG.info("Ignoring a second create of {} (job {}): job {} created it first", name, entry.jobId(),
                existing.jobId());
        } else if (!(existing.visible() && !entry.visible())) {
            // A write from an older copy (the loser of a create restating the winner) never hides the object again.
            objects.put(name, entry);
        }
    }

    private <T> T read(byte[] value, Class<T> type) throws IOException {
        return value == null ? null : json.readValue(value, type);
    }

    /** Puts the value, or removes the key for a tombstone. */
    private static <K, V> void put(Map<K, V> table, K key, V value) {
        if (value == null) {
            table.remove(key);
        } else {
            table.put(key, value);
        }
    }
}
