package io.kafkamv.service.jobs;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Every row of a view across the cluster, handed over as the reader takes them: this instance's partitions from
 * iterators opened together when the scan began, then the rows other instances sent for theirs. This instance's
 * rows are never gathered first: a count over a million of them keeps none alive, where gathering them made the
 * garbage collector copy them all, which cost as much as reading them.
 *
 * <p>A partition that moves away while it is read ends the scan with an {@link IncompleteReadException}, never
 * with part of the rows as if they were all. Close the scan when done, read to the end or not.
 */
public final class ViewScan implements Iterator<Object[]>, AutoCloseable {

    private final List<KeyValueIterator<Object[], Object[]>> local;
    private final Iterator<byte[]> remote;
    private final RowCodec codec;
    private int current;

    ViewScan(List<KeyValueIterator<Object[], Object[]>> local, List<byte[]> remote, RowCodec codec) {
        this.local = local;
        this.remote = remote.iterator();
        this.codec = codec;
    }

    @Override
    public boolean hasNext() {
        try {
            while (current < local.size()) {
                if (local.get(current).hasNext()) {
                    return true;
                }
                local.get(current++).close();
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
        if (current == local.size()) {
            return codec.decode(remote.next());
        }
        try {
            return local.get(current).next().value;
        } catch (InvalidStateStoreException moved) {
            throw movedWhileRead(moved);
        }
    }

    @Override
    public void close() {
        while (current < local.size()) {
            local.get(current++).close();
        }
    }

    private static IncompleteReadException movedWhileRead(InvalidStateStoreException moved) {
        return new IncompleteReadException("a partition of the view moved away while it was read: " + moved.getMessage(),
            "run the query again: its partitions are moving between instances or restoring (a restart or a scale-out)",
            moved);
    }
}
