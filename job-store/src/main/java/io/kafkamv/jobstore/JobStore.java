package io.kafkamv.jobstore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog and the jobs, kept on a compacted Kafka topic and mirrored in memory.
 *
 * <p>Every record is the full desired state of one object or job under its key; a tombstone
 * deletes it. Every instance tails the topic, so every instance sees every job. A write returns
 * once this instance's mirror has applied it, so a caller reads its own writes.
 */
public final class JobStore implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(JobStore.class);
    private static final String OBJECT_PREFIX = "object/";
    private static final String JOB_PREFIX = "job/";
    /**
     * A cancel is its own record, not a status in the job's record: a job's record is written by
     * whoever runs it (progress, completion) and a cancel written just before a completion would be
     * overwritten by it. A cancel record stays until the job is cleaned up, so it wins in every order
     * and after compaction.
     */
    private static final String CANCEL_PREFIX = "cancel/";
    private static final String STATEMENT_PREFIX = "statement/";
    private static final String PROGRESS_PREFIX = "statement-progress/";
    /** {@code statement-rows/<id>/<statement index>/<page>}: a page of a finished statement's result rows. */
    private static final String ROWS_PREFIX = "statement-rows/";
    /** Writing this key returns an offset no other writer gets: the source of job ids. */
    private static final String JOB_ID_CLAIM = "job-id-claim";
    /** Job ids start here, so that they read like the ids users know from RisingWave. */
    private static final long FIRST_JOB_ID = 1000;

    private final JobStoreTopic topic;
    private final TopicPartition partition;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    /** One for all stores: a mapper learns each class once, and {@link #warmUp} can teach it before the first CREATE. */
    private static final ObjectMapper JSON = mapper();
    private final Map<String, CatalogEntry> objects = new ConcurrentHashMap<>();
    private final Map<Long, Job> jobs = new ConcurrentHashMap<>();
    private final Map<Long, String> cancels = new ConcurrentHashMap<>();
    private final Map<Long, StatementJob> statements = new ConcurrentHashMap<>();
    private final Map<Long, StatementProgress> progress = new ConcurrentHashMap<>();
    private final Map<String, JsonNode> resultPages = new ConcurrentHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final Object appliedLock = new Object();
    private final Thread tailer;
    private volatile long appliedOffset = -1;
    private volatile boolean closed;

    private JobStore(Properties clientProperties, JobStoreTopic topic) {
        this.topic = topic;
        this.partition = new TopicPartition(topic.name(), 0);
        Properties producerProperties = new Properties();
        producerProperties.putAll(clientProperties);
        producerProperties.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProperties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        producerProperties.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        this.producer = new KafkaProducer<>(producerProperties, new StringSerializer(), new ByteArraySerializer());
        Properties consumerProperties = new Properties();
        consumerProperties.putAll(clientProperties);
        consumerProperties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumerProperties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.consumer = new KafkaConsumer<>(consumerProperties, new StringDeserializer(), new ByteArrayDeserializer());
        this.tailer = new Thread(this::tail, "job-store-tailer");
        tailer.setDaemon(true);
    }

    /** Creates the topic if needed, reads it to the end and keeps following it. */
    public static JobStore open(Properties clientProperties, JobStoreTopic topic, Duration loadTimeout)
        throws InterruptedException {
        try (Admin admin = Admin.create(clientProperties)) {
            topic.ensureExists(admin);
        }
        JobStore store = new JobStore(clientProperties, topic);
        store.consumer.assign(List.of(store.partition));
        store.consumer.seekToBeginning(List.of(store.partition));
        long end = store.consumer.endOffsets(List.of(store.partition)).get(store.partition);
        store.tailer.start();
        try {
            store.awaitApplied(end - 1, loadTimeout);
        } catch (TimeoutException e) {
            store.close();
            throw new JobStoreException("The job store did not load within " + loadTimeout, e);
        }
        LOG.info("Job store {} loaded: {} objects, {} jobs", topic.name(), store.objects.size(), store.jobs.size());
        return store;
    }

    public Collection<CatalogEntry> objects() {
        return List.copyOf(objects.values());
    }

    public Optional<CatalogEntry> object(String name) {
        return Optional.ofNullable(objects.get(name));
    }

    /** Every job, a cancelled one as CANCELLING whatever its own record says. */
    public Collection<Job> jobs() {
        return jobs.values().stream().map(this::withCancel).toList();
    }

    public Optional<Job> job(long id) {
        return Optional.ofNullable(jobs.get(id)).map(this::withCancel);
    }

    private Job withCancel(Job job) {
        String reason = cancels.get(job.id());
        return reason == null || job.status() == JobStatus.CANCELLING ? job : job.withStatus(JobStatus.CANCELLING, reason);
    }

    public Collection<StatementJob> statements() {
        return List.copyOf(statements.values());
    }

    public Optional<StatementJob> statement(long id) {
        return Optional.ofNullable(statements.get(id));
    }

    public Optional<StatementProgress> progress(long id) {
        return Optional.ofNullable(progress.get(id));
    }

    /** Why a job or statement was cancelled, if it was. */
    public Optional<String> cancelled(long id) {
        return Optional.ofNullable(cancels.get(id));
    }

    /** Rows {@code page} of the result of statement {@code index} of a finished background statement. */
    public Optional<JsonNode> resultPage(long id, int index, int page) {
        return Optional.ofNullable(resultPages.get(rowsKey(id, index, page)));
    }

    /** Records a statement as accepted; its end is written by {@link #finishRecord} in its run's transaction. */
    public void accept(StatementJob statement) {
        write(STATEMENT_PREFIX + statement.id(), serialize(statement));
        LOG.info("Statement {} accepted -> RUNNING on {}", statement.id(), statement.owner());
    }

    public void put(StatementProgress report) {
        write(PROGRESS_PREFIX + report.id(), serialize(report));
    }

    /** The record that finishes a statement, for its runner to write in the transaction of its writes. */
    public ProducerRecord<byte[], byte[]> finishRecord(StatementJob finished) {
        return record(STATEMENT_PREFIX + finished.id(), serialize(finished));
    }

    /** A page of result rows, for the runner to write in the same transaction as {@link #finishRecord}. */
    public ProducerRecord<byte[], byte[]> resultPageRecord(long id, int index, int page, JsonNode rows) {
        return record(rowsKey(id, index, page), serialize(rows));
    }

    /** Forgets a finished statement: its record first (so it is never shown without its pages), then the rest. */
    public void removeStatement(long id) {
        write(STATEMENT_PREFIX + id, null);
        List<String> pages = resultPages.keySet().stream().filter(key -> key.startsWith(ROWS_PREFIX + id + "/")).toList();
        for (String page : pages) {
            write(page, null);
        }
        write(PROGRESS_PREFIX + id, null);
        write(CANCEL_PREFIX + id, null);
    }

    /**
     * Returns once this instance has read every record written before the call, from any instance,
     * including transactions committed by then.
     */
    public void catchUp() {
        write(JOB_ID_CLAIM, new byte[0]);
    }

    private ProducerRecord<byte[], byte[]> record(String key, byte[] value) {
        return new ProducerRecord<>(topic.name(), 0, key.getBytes(StandardCharsets.UTF_8), value);
    }

    private static String rowsKey(long id, int index, int page) {
        return ROWS_PREFIX + id + "/" + index + "/" + page;
    }

    /** Cancels a job for good: from now on it is CANCELLING everywhere, whatever is written to it later. */
    public void cancel(long id, String reason) {
        write(CANCEL_PREFIX + id, reason.getBytes(StandardCharsets.UTF_8));
        LOG.info("Job {} ({}) -> CANCELLING: {}", id, Optional.ofNullable(jobs.get(id)).map(Job::objectName)
            .orElse(statements.containsKey(id) ? "background statement" : "?"), reason);
    }

    /** Called on the tailer thread after each batch of changes, from this or any other instance. */
    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    /** A job id no other writer on any instance gets: the offset of a claim record. */
    public long allocateJobId() {
        // Waiting until this instance has read its claim back also brings its catalog up to date with
        // every write before it, from any instance: the statement is compiled against that catalog.
        return FIRST_JOB_ID + write(JOB_ID_CLAIM, new byte[0]);
    }

    /** Writes a change to an object that exists (a new status); use {@link #create} for a new one. */
    public void put(CatalogEntry entry) {
        write(OBJECT_PREFIX + entry.name(), serialize(entry));
    }

    /**
     * Creates an object, unless another create of the same name came first, from any instance.
     * The store's single partition orders all writes, and every instance keeps the first create of
     * a name until it is dropped, so all agree on the winner; the loser gets false and must undo
     * what it made.
     */
    public boolean create(CatalogEntry entry) {
        put(entry);
        return object(entry.name()).filter(current -> sameObject(current, entry)).isPresent();
    }

    /** Whether two entries are states of one object rather than two creates of one name. */
    private static boolean sameObject(CatalogEntry a, CatalogEntry b) {
        return a.jobId() == b.jobId() && java.util.Objects.equals(a.createdAt(), b.createdAt())
            && a.kind() == b.kind();
    }

    /** Writes a job; the instance that changes a job's status logs it, so each change is one line in the cluster's logs. */
    public void put(Job job) {
        JobStatus before = Optional.ofNullable(jobs.get(job.id())).map(Job::status).orElse(null);
        write(JOB_PREFIX + job.id(), serialize(job));
        logChange(before, job);
    }

    /**
     * Accepts a new job and creates the object it makes, in one round trip (a background CREATE waits
     * for it): the job first, so that the object never names a job that is not there. False, as for
     * {@link #create}, when another create of the name came first; the caller then cancels the job.
     */
    public boolean acceptJob(Job job, CatalogEntry entry) {
        write(List.of(new ProducerRecord<>(topic.name(), 0, JOB_PREFIX + job.id(), serialize(job)),
            new ProducerRecord<>(topic.name(), 0, OBJECT_PREFIX + entry.name(), serialize(entry))));
        logChange(null, job);
        return object(entry.name()).filter(current -> sameObject(current, entry)).isPresent();
    }

    private static void logChange(JobStatus before, Job job) {
        if (before != job.status()) {
            LOG.info("Job {} ({}) {} -> {}{}", job.id(), job.objectName(), before == null ? "accepted" : before,
                job.status(), job.failure() == null ? "" : ": " + job.failure());
        }
    }

    public void removeObject(String name) {
        write(OBJECT_PREFIX + name, null);
    }

    public void removeJob(long id) {
        String object = Optional.ofNullable(jobs.get(id)).map(Job::objectName).orElse("?");
        write(JOB_PREFIX + id, null);
        write(CANCEL_PREFIX + id, null);
        LOG.info("Job {} ({}) removed: cancelled and cleaned up, or its object dropped", id, object);
    }

    private long write(String key, byte[] value) {
        return write(List.of(new ProducerRecord<>(topic.name(), 0, key, value)));
    }

    /**
     * Writes the records in one round trip, in their order (the store has one partition), and returns
     * once this instance has applied them all; the offset of the last.
     */
    private long write(List<ProducerRecord<String, byte[]>> records) {
        String keys = records.stream().map(ProducerRecord::key).collect(Collectors.joining(", "));
        try {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ProducerRecord<String, byte[]> record : records) {
                sent.add(producer.send(record));
            }
            long offset = -1;
            for (var metadata : sent) {
                offset = metadata.get(30, TimeUnit.SECONDS).offset();
            }
            awaitApplied(offset, Duration.ofSeconds(30));
            return offset;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobStoreException("Interrupted while writing " + keys + " to the job store", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new JobStoreException("Cannot write " + keys + " to the job store " + topic.name(), e);
        }
    }

    private void awaitApplied(long offset, Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (appliedLock) {
            while (appliedOffset < offset) {
                long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (remaining <= 0 || closed) {
                    throw new TimeoutException("Job store offset " + offset + " not applied; at " + appliedOffset);
                }
                appliedLock.wait(remaining);
            }
        }
    }

    private void tail() {
        try {
            while (!closed) {
                var records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, byte[]> record : records) {
                    apply(record);
                }
                long position = consumer.position(partition);
                synchronized (appliedLock) {
                    appliedOffset = position - 1;
                    appliedLock.notifyAll();
                }
                if (!records.isEmpty()) {
                    listeners.forEach(JobStore::notifySafely);
                }
            }
        } catch (WakeupException e) {
            if (!closed) {
                throw e;
            }
        } catch (RuntimeException e) {
            LOG.error("The job store reader stopped; this instance no longer sees catalog changes", e);
        }
    }

    private static void notifySafely(Runnable listener) {
        try {
            listener.run();
        } catch (RuntimeException e) {
            LOG.warn("A job store listener failed", e);
        }
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        String key = record.key();
        if (key == null || key.equals(JOB_ID_CLAIM)) {
            return;
        }
        try {
            if (key.startsWith(OBJECT_PREFIX)) {
                String name = key.substring(OBJECT_PREFIX.length());
                if (record.value() == null) {
                    objects.remove(name);
                } else {
                    CatalogEntry entry = JSON.readValue(record.value(), CatalogEntry.class);
                    CatalogEntry existing = objects.get(name);
                    if (existing != null && !sameObject(existing, entry)) {
                        LOG.info("Ignoring a second create of {} (job {}): job {} created it first", name,
                            entry.jobId(), existing.jobId());
                    } else {
                        objects.put(name, entry);
                    }
                }
            } else if (key.startsWith(CANCEL_PREFIX)) {
                long id = Long.parseLong(key.substring(CANCEL_PREFIX.length()));
                if (record.value() == null) {
                    cancels.remove(id);
                } else {
                    cancels.put(id, new String(record.value(), StandardCharsets.UTF_8));
                }
            } else if (key.startsWith(STATEMENT_PREFIX)) {
                long id = Long.parseLong(key.substring(STATEMENT_PREFIX.length()));
                if (record.value() == null) {
                    statements.remove(id);
                } else {
                    statements.put(id, JSON.readValue(record.value(), StatementJob.class));
                }
            } else if (key.startsWith(PROGRESS_PREFIX)) {
                long id = Long.parseLong(key.substring(PROGRESS_PREFIX.length()));
                if (record.value() == null) {
                    progress.remove(id);
                } else {
                    progress.put(id, JSON.readValue(record.value(), StatementProgress.class));
                }
            } else if (key.startsWith(ROWS_PREFIX)) {
                if (record.value() == null) {
                    resultPages.remove(key);
                } else {
                    resultPages.put(key, JSON.readTree(record.value()));
                }
            } else if (key.startsWith(JOB_PREFIX)) {
                long id = Long.parseLong(key.substring(JOB_PREFIX.length()));
                if (record.value() == null) {
                    jobs.remove(id);
                } else {
                    jobs.put(id, JSON.readValue(record.value(), Job.class));
                }
            } else {
                LOG.warn("Skipping job store record with unknown key {} at offset {}", key, record.offset());
            }
        } catch (IOException | NumberFormatException e) {
            // A record this version cannot read (e.g. written by a newer one) must not stop the others.
            LOG.error("Skipping unreadable job store record {} at offset {}: {}", key, record.offset(), e.toString());
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
        closed = true;
        consumer.wakeup();
        try {
            tailer.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close();
        producer.close(Duration.ofSeconds(5));
        synchronized (appliedLock) {
            appliedLock.notifyAll();
        }
    }
}
