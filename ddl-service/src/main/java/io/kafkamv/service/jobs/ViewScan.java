package io.kafkamv.service.jobs;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Predicate;

import io.kafkamv.compiler.topology.EncodedViewStore;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Every row of a view across the cluster, handed over as the reader takes them: this instance's partitions from
 * iterators opened together when the scan began, then the rows other instances sent for theirs. This instance's
 * rows are never gathered first: a count over a million of them keeps none alive, where gathering them made the
 * garbage collector copy them all, which cost as much as reading them. Rows are decoded from the stored bytes,
 * only the columns the reader asked for, and the keys they are stored under never.
 *
 * <p>A partition that moves away while it is read ends the scan with an {@link IncompleteReadException}, never
 * with part of the rows as if they were all. Close the scan when done, read to the end or not.
 */
public final class ViewScan implements Iterator<Object[]>, AutoCloseable {

    /** One partition's stored entries, open, and how its store keeps a row. */
    record StoredRows(KeyValueIterator<Bytes, byte[]> entries, EncodedViewStore.Partition store) {
    }

    private final PartitionReads<Object[]> local;
    private final Iterator<byte[]> remote;
    private final RowCodec codec;
    private final int[] columns;

    /**
     * Starts reading this instance's partitions ({@link PartitionReads}).
     *
     * @param columns the indexes of the columns to read, ascending; null for every column
     * @param filter the rows of those columns to leave out of this instance's partitions as they are read (the
     *               other instances' rows are not filtered: the query filters every row anyway); null for none
     */
    ViewScan(List<StoredRows> local, List<byte[]> remote, RowCodec codec, int[] columns, Predicate<Object[]> filter,
             String threadName) {
        this.codec = codec;
        this.columns = columns;
        this.remote = remote.iterator();
        this.local = new PartitionReads<>(local, (entry, store) -> {
            Object[] row = store.row(entry, columns);
            return row != null && (filter == null || filter.test(row)) ? row : null;
        }, threadName);
    }

    @Override
    public boolean hasNext() {
        try {
            if (local.hasNext()) {
                return true;
            }
        } catch (InvalidStateStoreException moved) {
            throw movedWhileRead(moved);
        }
        return remote.hasNext();
    }

    @Override
    public Object[] next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        if (local.hasNext()) {
            return local.next();
        }
        byte[] row = remote.next();
        return columns == null ? codec.decode(row) : codec.decode(row, 0, columns);
    }

    @Override
    public void close() {
        local.close();
    }

    private static IncompleteReadException movedWhileRead(InvalidStateStoreException moved) {
        return new IncompleteReadException("a partition of the view moved away while it was read: " + moved.getMessage(),
            "run the query again: its partitions are moving between instances or restoring (a restart or a scale-out)",
            moved);
    }
}
