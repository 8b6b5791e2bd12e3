package io.kafkamv.service;

import java.time.Duration;
import java.util.Iterator;
import java.util.function.Predicate;

import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.jobs.IncompleteReadException;
import io.kafkamv.service.jobs.ViewReads;
import io.kafkamv.service.jobs.ViewScan;

/** A view's rows as a query reads them: a {@link ViewScan} whose failures are errors a client is told. */
final class ReadableView implements Iterator<Object[]>, AutoCloseable {

    private final CatalogEntry entry;
    private final ViewScan scan;

    /**
     * @param columns the indexes of the columns to read, ascending; null for every column
     * @param filter what rows of those columns to leave out, where the view's rows are read; null for none
     */
    ReadableView(CatalogEntry entry, ViewReads reads, int[] columns, Predicate<Object[]> filter) {
        this.entry = entry;
        try {
            this.scan = reads.openViewRows(entry.jobId(), columns, filter, Duration.ofSeconds(60)).orElseThrow(() -> SqlError.of(
                SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                "materialized view \"" + entry.name() + "\" is not ready on this instance yet; try again"));
        } catch (IncompleteReadException e) {
            throw incomplete(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SqlError.of(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        }
    }

    @Override
    public boolean hasNext() {
        try {
            return scan.hasNext();
        } catch (IncompleteReadException e) {
            throw incomplete(e);
        }
    }

    @Override
    public Object[] next() {
        try {
            return scan.next();
        } catch (IncompleteReadException e) {
            throw incomplete(e);
        }
    }

    @Override
    public void close() {
        scan.close();
    }

    private SqlError incomplete(IncompleteReadException e) {
        return SqlError.at(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "materialized view \"" + entry.name()
            + "\": " + e.getMessage(), 0, e.hint());
    }
}
