package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;

class PartitionReadsTest {

    /** A partition's entries in memory, each value a row number; counts its closes and can fail after some rows. */
    private static final class Entries implements KeyValueIterator<Bytes, byte[]> {
        private final Iterator<Integer> rows;
        private final int failAfter;
        private final AtomicInteger closes = new AtomicInteger();
        private int read;

        Entries(int from, int count, int failAfter) {
            this.rows = IntStream.range(from, from + count).iterator();
            this.failAfter = failAfter;
        }

        @Override
        public boolean hasNext() {
            if (read == failAfter) {
                throw new InvalidStateStoreException("the partition moved");
            }
            return rows.hasNext();
        }

        @Override
        public KeyValue<Bytes, byte[]> next() {
            read++;
            int row = rows.next();
            return KeyValue.pair(Bytes.wrap(new byte[] {(byte) row}), new byte[] {(byte) (row >> 16), (byte) (row >> 8), (byte) row});
        }

        @Override
        public Bytes peekNextKey() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    /** The reads here take their rows from the entries alone: they need no store. */
    private static List<ViewScan.StoredRows> partitions(List<Entries> entries) {
        return entries.stream().map(rows -> new ViewScan.StoredRows(rows, null)).toList();
    }

    private static PartitionReads<Integer> reads(List<Entries> entries) {
        return new PartitionReads<>(partitions(entries),
            (entry, store) -> ((entry.value[0] & 0xff) << 16) | ((entry.value[1] & 0xff) << 8) | (entry.value[2] & 0xff), "test-scan");
    }

    @Test
    void everyRowOfEveryPartitionIsReadOnceAndEachIteratorClosedOnce() {
        List<Entries> entries = List.of(new Entries(0, 5000, -1), new Entries(5000, 0, -1), new Entries(5000, 3, -1),
            new Entries(5003, 2500, -1));
        List<Integer> read = new ArrayList<>();

        try (PartitionReads<Integer> reads = reads(entries)) {
            reads.forEachRemaining(read::add);
            assertThat(reads.hasNext()).isFalse();
        }

        assertThat(read).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 7503).boxed().toList());
        assertThat(entries).allSatisfy(rows -> assertThat(rows.closes).hasValue(1));
    }

    @Test
    void aReadClosedEarlyStopsItsThreadsAndClosesEveryIterator() {
        List<Entries> entries = IntStream.range(0, 6).mapToObj(p -> new Entries(p * 100_000, 100_000, -1)).toList();

        try (PartitionReads<Integer> reads = reads(entries)) {
            assertThat(reads.next()).isNotNull();
        }

        assertThat(entries).allSatisfy(rows -> assertThat(rows.closes).hasValue(1));
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(thread -> thread.getName().startsWith("test-scan"));
    }

    @Test
    void aPartitionThatFailsEndsTheReadWithItsFailure() {
        List<Entries> entries = List.of(new Entries(0, 10, -1), new Entries(10, 5000, 2000));

        try (PartitionReads<Integer> reads = reads(entries)) {
            assertThatThrownBy(() -> reads.forEachRemaining(row -> { }))
                .isInstanceOf(InvalidStateStoreException.class).hasMessage("the partition moved");
        }
        assertThat(entries).allSatisfy(rows -> assertThat(rows.closes).hasValue(1));
    }
}
