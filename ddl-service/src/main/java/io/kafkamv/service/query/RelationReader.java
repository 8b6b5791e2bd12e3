package io.kafkamv.service.query;

import java.util.List;

import io.kafkamv.jobstore.CatalogEntry;

/** Reads the current rows of a table or view, in the form views compute with. */
@FunctionalInterface
public interface RelationReader {

    List<Object[]> rows(CatalogEntry entry);
}
