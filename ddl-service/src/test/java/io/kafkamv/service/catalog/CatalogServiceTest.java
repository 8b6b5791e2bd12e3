package io.kafkamv.service.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.InMemoryJobStoreLogTestDouble;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.jobstore.ObjectStatus;
import org.junit.jupiter.api.Test;

/** Catalog entries as stored: a relation's definition keeps the names entries were first stored with. */
class CatalogServiceTest {

    private static final RowSchema SCHEMA = RowSchema.of(Column.of("n", SqlType.BIGINT));

    @Test
    void whetherAViewIsAppendOnlyIsStoredAsInsertsOnlyAndReadBack() {
        Relation view = new Relation("v", SCHEMA, List.of(Relation.ROW_ID), "kmv-view-v", Relation.NATIVE, null,
            Map.of(), true);

        CatalogEntry entry = CatalogService.entry(view, ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATED, "", 1);

        assertThat(entry.definition().path("insertsOnly").asBoolean()).isTrue();
        assertThat(entry.definition().has("appendOnly")).isFalse();
        assertThat(CatalogService.relation(entry).appendOnly()).isTrue();
    }

    @Test
    void queriesAndTheCompilerSeeOnlyCreatedRelationsNeitherSinksNorIndexes() throws Exception {
        try (JobStore store = JobStore.over(new InMemoryJobStoreLogTestDouble(), Duration.ofSeconds(1))) {
            Relation table = new Relation("t", SCHEMA, List.of(Relation.ROW_ID), "kmv-table-t");
            store.create(CatalogService.entry(table, ObjectKind.TABLE, ObjectStatus.CREATED, "CREATE TABLE t (n bigint)", 0));
            Relation creating = new Relation("v", SCHEMA, List.of(), "kmv-view-v", Relation.NATIVE, null, Map.of(), true);
            store.create(CatalogService.entry(creating, ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATING, "", 1001));
            store.create(CatalogService.indexEntry("i", "t", List.of("n"), "CREATE INDEX i ON t (n)", 1002)
                .withStatus(ObjectStatus.CREATED));

            assertThat(new CatalogService(store).relations()).extracting(Relation::name).containsExactly("t");
        }
    }

    @Test
    void aViewStoredBeforeItWasRecordedIsTakenAsChanging() {
        Relation view = new Relation("v", SCHEMA, List.of(), "kmv-view-v", Relation.NATIVE, null, Map.of(), true);
        CatalogEntry entry = CatalogService.entry(view, ObjectKind.MATERIALIZED_VIEW, ObjectStatus.CREATED, "", 1);
        ((com.fasterxml.jackson.databind.node.ObjectNode) entry.definition()).remove("insertsOnly");

        assertThat(CatalogService.relation(entry).appendOnly()).isFalse();
    }

    @Test
    void aDefinitionIsReadOnceAndAReplacedOneIsReadAgain() {
        Relation first = new Relation("r", SCHEMA, List.of(Relation.ROW_ID), "kmv-table-r");
        CatalogEntry entry = CatalogService.entry(first, ObjectKind.TABLE, ObjectStatus.CREATED, "", 0);
        Relation read = CatalogService.relation(entry);

        assertThat(CatalogService.relation(entry.withStatus(ObjectStatus.CREATING))).isSameAs(read);

        Relation second = new Relation("r", RowSchema.of(Column.of("m", SqlType.INTEGER)), List.of(Relation.ROW_ID),
            "kmv-table-r2");
        CatalogEntry replaced = CatalogService.entry(second, ObjectKind.TABLE, ObjectStatus.CREATED, "", 0);
        assertThat(CatalogService.relation(replaced).topic()).isEqualTo("kmv-table-r2");
        assertThat(CatalogService.relation(replaced).schema().columns()).extracting(Column::name).containsExactly("m");
    }
}
