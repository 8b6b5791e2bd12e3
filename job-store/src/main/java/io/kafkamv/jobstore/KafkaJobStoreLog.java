package io.kafkamv.jobstore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * The job store's log on the single partition of a compacted topic. A tailer thread reads it from the
 * beginning (committed transactions only) and hands each record to the reader; an append returns once
 * the tailer has applied it, so a writer reads its own writes.
 */
public final class KafkaJobStoreLog implements JobStoreLog {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaJobStoreLog.class);

    private final JobStoreTopic topic;
    private final TopicPartition partition;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> consumer;
    private final Object appliedLock = new Object();
    private final Thread tailer;
    private volatile Reader reader;
    private volatile long appliedOffset = -1;
    private volatile boolean closed;

    private KafkaJobStoreLog(Properties clientProperties, JobStoreTopic topic) {
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
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        long end = consumer.endOffsets(List.of(partition)).get(partition);
        tailer.start();
        awaitApplied(end - 1, timeout);
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
        return new ProducerRecord<>(topic.name(), 0, entry.key().getBytes(StandardCharsets.UTF_8), entry.value());
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
                    if (record.key() != null) {
                        reader.apply(record.key(), record.value(), record.offset());
                    }
                }
                long position = consumer.position(partition);
                synchronized (appliedLock) {
                    appliedOffset = position - 1;
                    appliedLock.notifyAll();
                }
                if (!records.isEmpty()) {
                    reader.batchApplied();
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
