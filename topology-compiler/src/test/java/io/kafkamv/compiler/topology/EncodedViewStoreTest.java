package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

/**
 * Queries scan a view's store as bytes, under Kafka Streams' deserializing layer: the bytes each kind of view store
 * keeps are pinned here, so that a Kafka Streams upgrade that changes them fails this test, not a query.
 */
class EncodedViewStoreTest {

    @Test
    void aTablesViewKeepsEachRowAfterItsTimestamp() {
        try (ViewHarness harness = new ViewHarness().withRecordCaches().table("t", List.of("id"),
                new Column("id", SqlType.BIGINT, false), new Column("name", SqlType.VARCHAR, true))) {
            var view = harness.view("CREATE MATERIALIZED VIEW m AS SELECT id, name FROM t WHERE id > 1");
            harness.upsert("t", 1L, "one").upsert("t", 2L, "two").upsert("t", 3L, null).upsert("t", 4L, "four")
                .delete("t", 4L);

            EncodedViewStore.Partition store = harness.encodedStore();

            assertThat(store.valueOffset()).isEqualTo(Long.BYTES);
            assertThat(read(store, view.relation().key(), view.relation().schema().columns()))
                .containsExactlyInAnyOrderElementsOf(keyedRows(harness.storedRows(), 0))
                .containsExactlyInAnyOrder(List.of(List.of(2L), List.of(2L, "two")),
                    List.of(List.of(3L), Arrays.asList(3L, null)));
        }
    }

    @Test
    void aViewOfInsertedRowsKeepsEachRowAsItIs() {
        try (ViewHarness harness = new ViewHarness().appendOnlyTable("events",
                new Column("g", SqlType.INTEGER, true), new Column("v", SqlType.INTEGER, true))) {
            var view = harness.view("CREATE MATERIALIZED VIEW big AS SELECT g, v * 2 AS doubled FROM events WHERE v > 1");
            harness.insert("events", 1, 1, 1).insert("events", 2, 1, 5).insert("events", 3, null, 7);

            EncodedViewStore.Partition store = harness.encodedStore();

            assertThat(store.valueOffset()).isZero();
            assertThat(read(store, view.relation().key(), view.relation().schema().columns()))
                .extracting(keyAndRow -> keyAndRow.get(1))
                .containsExactlyInAnyOrderElementsOf(harness.storedRows())
                .containsExactlyInAnyOrder(List.of(1, 10), Arrays.asList(null, 14));
        }
    }

    /** Each stored entry as [key, row], both decoded from the bytes as a scan decodes them. */
    private static List<List<List<Object>>> read(EncodedViewStore.Partition store, List<Column> key, List<Column> columns) {
        RowCodec keys = new RowCodec(key);
        RowCodec rows = new RowCodec(columns);
        List<List<List<Object>>> read = new ArrayList<>();
        try (var all = store.all()) {
            all.forEachRemaining(entry -> {
                Object[] row = store.row(entry, null);
                assertThat(rows.decode(store.encodedRow(entry))).isEqualTo(row);
                assertThat(store.row(entry, new int[] {1})).containsExactly(row[1]);
                assertThat(store.get(keys.decode(entry.key.get()))).isEqualTo(row);
                read.add(List.of(Arrays.asList(keys.decode(entry.key.get())), Arrays.asList(row)));
            });
        }
        return read;
    }

    /** Stored rows with the key each is kept under: here the view's first column. */
    private static List<List<List<Object>>> keyedRows(List<List<Object>> rows, int keyColumn) {
        return rows.stream().map(row -> List.of(Arrays.asList(row.get(keyColumn)), row)).toList();
    }
}
