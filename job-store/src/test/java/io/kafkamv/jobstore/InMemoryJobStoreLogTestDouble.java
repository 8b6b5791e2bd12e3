package io.kafkamv.jobstore;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A job store log in memory, in place of the Kafka topic, for tests of what is built on the store: an
 * append is applied at once, on the appending thread, and gets the next offset. It has one instance's
 * view only, and records written in another producer's transaction ({@link #recordOf}) never reach it
 * unless a test hands them to {@link #appendCommitted}.
 */
public final class InMemoryJobStoreLogTestDouble implements JobStoreLog {

    private final List<Entry> entries = new ArrayList<>();
    private Reader reader;

    @Override
    public String name() {
        return "in-memory";
    }

    @Override
    public synchronized void follow(Reader reader, Duration timeout) {
        this.reader = reader;
        for (int offset = 0; offset < entries.size(); offset++) {
            reader.apply(entries.get(offset).key(), entries.get(offset).value(), 0, offset);
        }
        if (!entries.isEmpty()) {
            reader.batchApplied();
        }
    }

    @Override
    public synchronized long append(List<Entry> batch) {
        for (Entry entry : batch) {
            entries.add(entry);
            if (reader != null) {
                reader.apply(entry.key(), entry.value(), 0, entries.size() - 1);
            }
        }
        if (reader != null && !batch.isEmpty()) {
            reader.batchApplied();
        }
        return entries.size() - 1;
    }

    @Override
    public java.util.Optional<String> readProblem() {
        return java.util.Optional.empty();
    }

    @Override
    public ProducerRecord<byte[], byte[]> recordOf(Entry entry) {
        return new ProducerRecord<>(name(), 1, entry.key().getBytes(StandardCharsets.UTF_8), entry.value());
    }

    @Override
    public synchronized java.util.Optional<byte[]> read(int partition, long offset) {
        return offset < entries.size() ? java.util.Optional.ofNullable(entries.get((int) offset).value()) : java.util.Optional.empty();
    }

    @Override
    public void catchUpTransactions() {
        // Committed records are appended by the test, at once.
    }

    @Override
    public void deleteTransactional(List<String> keys) {
        append(keys.stream().map(key -> new Entry(key, null)).toList());
    }

    /** Appends records another producer committed in its transaction, as the topic would show them. */
    public long appendCommitted(List<ProducerRecord<byte[], byte[]>> records) {
        return append(records.stream()
            .map(record -> new Entry(new String(record.key(), StandardCharsets.UTF_8), record.value())).toList());
    }

    /** Every entry appended so far, in order: what the topic would hold before compaction. */
    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    @Override
    public void close() {
    }

    /** A log holding what compaction would leave of this one: the last record of each key, in log order. */
    public synchronized InMemoryJobStoreLogTestDouble compacted() {
        java.util.Map<String, Entry> latest = new java.util.LinkedHashMap<>();
        for (Entry entry : entries) {
            latest.remove(entry.key());
            latest.put(entry.key(), entry);
        }
        InMemoryJobStoreLogTestDouble compacted = new InMemoryJobStoreLogTestDouble();
        compacted.entries.addAll(latest.values());
        return compacted;
    }
}
