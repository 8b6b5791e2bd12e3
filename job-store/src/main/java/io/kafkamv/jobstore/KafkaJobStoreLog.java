package io.kafkamv.jobstore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

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
 * The job store's log on a compacted topic ({@link JobStoreTopic}): appends go to partition 0, records
 * written in other producers' transactions to partition 1, so that an open transaction holds back no
 * append. A tailer thread reads both from the beginning (committed transactions only) and hands each
 * record to the reader; an append returns once the tailer has applied it, so a writer reads its own writes.
 */
public final class KafkaJobStoreLog implements JobStoreLog {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaJobStoreLog.class);

    private final JobStoreTopic topic;
    private final TopicPartition partition;
    private final TopicPartition transactional;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    /**
     * Reads the end of {@link #transactional}, open transactions included, and single records again ({@link #read});
     * the tailer's consumer is its thread's alone.
     */
    private final KafkaConsumer<String, byte[]> written;
    private final Object appliedLock = new Object();
    private final Thread tailer;
    private volatile Reader reader;
    private volatile long appliedOffset = -1;
    private volatile long transactionalPosition;
    private volatile boolean closed;
    private volatile String readProblem;
    /** The offset of the last record handed to the reader, by partition; read and written by the tailer only. */
    private final Map<TopicPartition, Long> readUpTo = new HashMap<>();

    private KafkaJobStoreLog(Properties clientProperties, JobStoreTopic topic) {
        this.topic = topic;
        this.partition = new TopicPartition(topic.name(), 0);
        this.transactional = new TopicPartition(topic.name(), 1);
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
        Properties writtenProperties = new Properties();
        writtenProperties.putAll(consumerProperties);
        writtenProperties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        this.written = new KafkaConsumer<>(writtenProperties, new StringDeserializer(), new ByteArrayDeserializer());
        this.tailer = new Thread(this::tail, "job-store-tailer");
        tailer.setDaemon(true);
    }

    /** The log on {@code topic}, which is created if it does not exist yet. */
    public static KafkaJobStoreLog open(Properties clientProperties, JobStoreTopic topic) throws InterruptedException {
        try (Admin admin = Admin.create(clientProperties)) {
            topic.ensureExists(admin);
        }
        return new KafkaJobStoreLog(clientProperties, topic);
    }

    @Override
    public String name() {
        return topic.name();
    }

    @Override
    public void follow(Reader reader, Duration timeout) throws InterruptedException, TimeoutException {
        this.reader = reader;
        List<TopicPartition> both = List.of(partition, transactional);
        consumer.assign(both);
        consumer.seekToBeginning(both);
        Map<TopicPartition, Long> ends = consumer.endOffsets(both);
        tailer.start();
        long deadline = System.nanoTime() + timeout.toNanos();
        awaitApplied(ends.get(partition) - 1, timeout);
        awaitTransactional(ends.get(transactional), Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    @Override
    public long append(List<Entry> entries) {
        String keys = entries.stream().map(Entry::key).collect(Collectors.joining(", "));
        try {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (Entry entry : entries) {
                sent.add(producer.send(new ProducerRecord<>(topic.name(), 0, entry.key(), entry.value())));
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

    @Override
    public ProducerRecord<byte[], byte[]> recordOf(Entry entry) {
        return new ProducerRecord<>(topic.name(), transactional.partition(), entry.key().getBytes(StandardCharsets.UTF_8),
            entry.value());
    }

    /**
     * Waits until the reader is past every record written so far, open transactions' too: it gets there only once
     * each of them has ended, so no transaction that committed before the call is missed. (Waiting for the last
     * stable offset instead would return at once behind a transaction left open, before later commits.)
     */
    @Override
    public void catchUpTransactions() {
        try {
            long end;
            synchronized (written) {
                end = written.endOffsets(List.of(transactional), Duration.ofSeconds(30)).get(transactional);
            }
            awaitTransactional(end, Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobStoreException("Interrupted while reading the transactions of the job store", e);
        } catch (TimeoutException | org.apache.kafka.common.errors.TimeoutException e) {
            throw new JobStoreException("Cannot read the transactions of the job store " + topic.name(), e);
        }
    }

    @Override
    public Optional<byte[]> read(int partitionNumber, long offset) {
        TopicPartition at = new TopicPartition(topic.name(), partitionNumber);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        synchronized (written) {
            written.assign(List.of(at));
            written.seek(at, offset);
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : written.poll(Duration.ofMillis(200))) {
                    if (record.offset() >= offset) {
                        // Past it: compaction removed it (a later record of its key replaced it).
                        return record.offset() == offset ? Optional.ofNullable(record.value()) : Optional.empty();
                    }
                }
                if (written.position(at) > offset) {
                    return Optional.empty();
                }
            }
        }
        throw new JobStoreException("Cannot read the record at " + at + "@" + offset + " of the job store within 30 s", null);
    }

    @Override
    public void deleteTransactional(List<String> keys) {
        try {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (String key : keys) {
                sent.add(producer.send(new ProducerRecord<>(topic.name(), transactional.partition(), key, null)));
            }
            for (var metadata : sent) {
                metadata.get(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobStoreException("Interrupted while deleting " + keys + " from the job store", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new JobStoreException("Cannot delete " + keys + " from the job store " + topic.name(), e);
        }
    }

    private void awaitTransactional(long position, Duration timeout) throws InterruptedException, TimeoutException {
        await(() -> transactionalPosition >= position, timeout,
            () -> "Job store transactions up to " + position + " not applied; at " + transactionalPosition);
    }

    private void awaitApplied(long offset, Duration timeout) throws InterruptedException, TimeoutException {
        await(() -> appliedOffset >= offset, timeout, () -> "Job store offset " + offset + " not applied; at " + appliedOffset);
    }

    /** Waits until the tailer has {@code applied} what a caller waits for; the tailer wakes the waiters after each poll. */
    private void await(java.util.function.BooleanSupplier applied, Duration timeout, java.util.function.Supplier<String> where)
        throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (appliedLock) {
            while (!applied.getAsBoolean()) {
                long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (remaining <= 0 || closed) {
                    throw new TimeoutException(where.get());
                }
                appliedLock.wait(remaining);
            }
        }
    }

    /**
     * Reads the log until closed. A failure (a credential rotated, an ACL taken away, a broker gone) does not end
     * the reading: it is logged, shown by {@link #readProblem} (which makes the instance not ready), and retried
     * with growing pauses from where the reading stopped.
     */
    private void tail() {
        long pause = 0;
        while (!closed) {
            try {
                if (pause > 0) {
                    Thread.sleep(pause);
                }
                var records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, byte[]> record : records) {
                    if (record.key() != null) {
                        reader.apply(record.key(), record.value(), record.partition(), record.offset());
                    }
                    readUpTo.put(new TopicPartition(record.topic(), record.partition()), record.offset());
                }
                long position = consumer.position(partition);
                long positionOfTransactions = consumer.position(transactional);
                // Cleared once the whole pass has worked, and before the waiters are woken: one whose write was just
                // applied sees no problem left.
                if (readProblem != null) {
                    LOG.info("The job store reader reads again after: {}", readProblem);
                    readProblem = null;
                }
                synchronized (appliedLock) {
                    appliedOffset = position - 1;
                    transactionalPosition = positionOfTransactions;
                    appliedLock.notifyAll();
                }
                if (!records.isEmpty()) {
                    reader.batchApplied();
                }
                pause = 0;
            } catch (WakeupException e) {
                if (!closed) {
                    LOG.warn("The job store reader was woken up while not closing; it goes on");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // The records after the last one applied are read again, none skipped.
                seekAfter(partition);
                seekAfter(transactional);
                pause = Math.min(Math.max(pause * 2, 1000), 30_000);
                if (readProblem == null) {
                    LOG.error("The job store reader cannot read {}; this instance sees no catalog changes and is not ready "
                        + "until it can (trying again every {} s at most)", topic.name(), 30, e);
                }
                readProblem = e.toString();
            }
        }
    }

    private void seekAfter(TopicPartition read) {
        long offset = readUpTo.getOrDefault(read, -1L);
        try {
            consumer.seek(read, offset + 1);
        } catch (RuntimeException e) {
            LOG.debug("Cannot seek the job store reader of {} back to {}: {}", read, offset + 1, e.toString());
        }
    }

    @Override
    public Optional<String> readProblem() {
        return Optional.ofNullable(readProblem);
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        // Also ends a pause between two attempts after a failure.
        tailer.interrupt();
        try {
            tailer.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close();
        synchronized (written) {
            written.close();
        }
        producer.close(Duration.ofSeconds(5));
        synchronized (appliedLock) {
            appliedLock.notifyAll();
        }
    }
}
