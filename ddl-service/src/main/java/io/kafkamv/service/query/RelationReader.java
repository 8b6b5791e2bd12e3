package io.kafkamv.service.query;

import java.util.function.Predicate;

import io.kafkamv.jobstore.CatalogEntry;

/**
 * Reads the current rows of a table or view, in the form views compute with, when a query iterates them. An
 * iterator that is {@link AutoCloseable} is closed when the query is done with it, read to the end or not.
 */
@FunctionalInterface
public interface RelationReader {

    /**
     * The values of {@code columns} (indexes, ascending, each once) of each row, null for every column. Rows of those
     * values {@code filter} refuses may be left out (null: none); the query filters them anyway.
     */
    Iterable<Object[]> rows(CatalogEntry entry, int[] columns, Predicate<Object[]> filter);
}
