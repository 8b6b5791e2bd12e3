package io.kafkamv.service.jobs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

import io.kafkamv.compiler.topology.EncodedViewStore;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * The stored rows of a view's partitions here, read on threads of their own, one per core at most, and handed over
 * in batches as the reader takes them. Reading a store is mostly RocksDB's iterator and decoding, about a quarter of a
 * second per million rows on one core: partitions read side by side take that down by the number of cores, while
 * the query's own thread computes over the rows already read.
 *
 * <p>Each partition's iterator is closed by the thread that read it, or by {@link #close} for one never begun;
 * close waits for the threads, so that no iterator outlives the read. A failure of one partition's read is thrown
 * to the reader in place of the rows still to come.
 */
final class PartitionReads<T> implements Iterator<T>, AutoCloseable {

    private static final int BATCH = 1024;
    private static final long WAIT_MILLIS = 50;

    /** A batch of rows, the end of one thread's partitions, or a failure. */
    private record Batch<T>(List<T> rows, Throwable failure) {
        static <T> Batch<T> end() {
            return new Batch<>(null, null);
        }
    }

    private final List<ViewScan.StoredRows> partitions;
    private final BiFunction<KeyValue<Bytes, byte[]>, EncodedViewStore.Partition, T> read;
    private final BlockingQueue<Batch<T>> batches;
    private final AtomicInteger nextPartition = new AtomicInteger();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean closed;
    private int threadsReading;
    private Iterator<T> current = Collections.emptyIterator();

    /**
     * Starts reading: {@code read} makes what the reader takes of each stored entry (a decoded row, or the row's
     * bytes for another instance), or null to leave the entry out.
     */
    PartitionReads(List<ViewScan.StoredRows> partitions,
                   BiFunction<KeyValue<Bytes, byte[]>, EncodedViewStore.Partition, T> read, String threadName) {
        this.partitions = partitions;
        this.read = read;
        int count = Math.min(partitions.size(), Runtime.getRuntime().availableProcessors());
        // Read-ahead of two batches a thread: enough to keep the threads busy, little to hold for a reader that stops.
        this.batches = new ArrayBlockingQueue<>(2 * Math.max(1, count));
        this.threadsReading = count;
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(this::readPartitions, threadName + "-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    @Override
    public boolean hasNext() {
        while (!current.hasNext()) {
            if (threadsReading == 0) {
                return false;
            }
            Batch<T> batch = nextBatch();
            if (batch.failure() != null) {
                threadsReading = 0;
                if (batch.failure() instanceof Error error) {
                    throw error;
                }
                throw (RuntimeException) batch.failure();
            }
            if (batch.rows() == null) {
                threadsReading--;
            } else {
                current = batch.rows().iterator();
            }
        }
        return true;
    }

    /** The next batch, failing when the threads that would hand it over have all ended without it. */
    private Batch<T> nextBatch() {
        try {
            while (true) {
                Batch<T> batch = batches.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS);
                if (batch != null) {
                    return batch;
                }
                if (threads.stream().noneMatch(Thread::isAlive) && batches.isEmpty()) {
                    return new Batch<>(null, new IllegalStateException(
                        "the threads reading the view's partitions ended without handing over all its rows"));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IncompleteReadException("the read of the view was interrupted", "run the query again", e);
        }
    }

    @Override
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return current.next();
    }

    /** Stops the threads, waits for them, and closes the iterators of partitions they never began. */
    @Override
    public void close() {
        closed = true;
        batches.clear();
        boolean interrupted = false;
        for (Thread thread : threads) {
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        // A thread that was waiting to hand a batch over may have put it in as the queue was cleared.
        batches.clear();
        for (int partition = Math.min(nextPartition.get(), partitions.size()); partition < partitions.size(); partition++) {
            partitions.get(partition).entries().close();
        }
        // A second close has nothing left to close.
        nextPartition.set(partitions.size());
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void readPartitions() {
        try {
            while (!closed) {
                int partition = nextPartition.getAndIncrement();
                if (partition >= partitions.size()) {
                    break;
                }
                try {
                    readPartition(partitions.get(partition));
                } finally {
                    partitions.get(partition).entries().close();
                }
            }
            hand(Batch.end());
        } catch (RuntimeException | Error e) {
            // Even an error is handed over, as it is: the reader waits for every thread's last word.
            hand(new Batch<>(null, e));
        }
    }

    private void readPartition(ViewScan.StoredRows rows) {
        List<T> batch = new ArrayList<>(BATCH);
        while (!closed && rows.entries().hasNext()) {
            KeyValue<Bytes, byte[]> entry = rows.entries().next();
            T value = read.apply(entry, rows.store());
            if (value != null) {
                batch.add(value);
            }
            if (batch.size() == BATCH) {
                hand(new Batch<>(batch, null));
                batch = new ArrayList<>(BATCH);
            }
        }
        if (!batch.isEmpty()) {
            hand(new Batch<>(batch, null));
        }
    }

    /** Puts a batch in the queue once there is room, unless the read is closed meanwhile. */
    private void hand(Batch<T> batch) {
        boolean interrupted = false;
        while (!closed) {
            try {
                if (batches.offer(batch, WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    break;
                }
            } catch (InterruptedException e) {
                // Nothing here interrupts these threads; should something, the batch is still handed over.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
