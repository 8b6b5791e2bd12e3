package io.kafkamv.connectors.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class SourceRecordDecoderTest {

    private static final RowSchema CUSTOMERS = new RowSchema(List.of(new Column("id", SqlType.INTEGER, false),
        Column.of("name", SqlType.VARCHAR)), List.of("id"));

    @Test
    void includedColumnsTakeTheRecordsTimestampPlaceKeyAndHeadersAfterTheValuesColumns() {
        RowSchema schema = new RowSchema(List.of(new Column("id", SqlType.INTEGER, false), Column.of("name", SqlType.VARCHAR),
            Column.of("ts", SqlType.TIMESTAMPTZ), Column.of("trace", SqlType.VARCHAR), Column.of("p", SqlType.INTEGER),
            Column.of("o", SqlType.BIGINT), Column.of("k", SqlType.BYTEA)), List.of("id"));
        SourceRecordDecoder decoder = new SourceRecordDecoder(schema, "json", Map.of("include.timestamp", "ts",
            "include.header.trace", "trace", "include.partition", "p", "include.offset", "o", "include.key", "k"));
        var headers = new org.apache.kafka.common.header.internals.RecordHeaders()
            .add("trace", bytes("first")).add("trace", bytes("abc-1")).add("other", bytes("x"));

        var upsert = decoder.decode(3, 42, 1_764_410_400_000L, headers, bytes("{\"id\": 7}"),
            bytes("{\"id\": 7, \"name\": \"ann\"}"));
        var bare = decoder.decode(0, 1, -1, null, null, bytes("{\"id\": 8}"));

        assertThat(upsert.key()).containsExactly(7);
        assertThat(upsert.row()).containsExactly(7, "ann", 1_764_410_400_000L, "abc-1", 3, 42L, bytes("{\"id\": 7}"));
        assertThat(bare.row()).as("no timestamp, headers or key").containsExactly(8, null, null, null, 0, 1L, null);
        assertThat(decoder.decode(0, 2, 5L, headers, bytes("{\"id\": 7}"), null).row()).as("a delete").isNull();
        var latin1 = new org.apache.kafka.common.header.internals.RecordHeaders().add("trace", new byte[] {(byte) 0xe9});
        assertThatThrownBy(() -> decoder.decode(0, 3, 5L, latin1, null, bytes("{\"id\": 9}")))
            .isInstanceOf(MalformedRecordException.class).hasMessage("header 'trace' is not UTF-8 text");
    }

    @Test
    void aWholeValueFormatCountsOnlyTheValuesColumns() {
        RowSchema schema = new RowSchema(List.of(Column.of("line", SqlType.VARCHAR), Column.of("ts", SqlType.TIMESTAMPTZ)),
            List.of());
        SourceRecordDecoder decoder = new SourceRecordDecoder(schema, "string", Map.of("include.timestamp", "ts"));

        assertThat(decoder.decode(1, 9, 77L, null, null, bytes("hello")).row()).containsExactly("hello", 77L);
    }

    @Test
    void aStringKeyDeletesTheRowItNamesAndANumberKeyIsParsed() {
        SourceRecordDecoder decoder = new SourceRecordDecoder(CUSTOMERS, "json", Map.of("key.format", "string"));

        assertThat(decoder.decode(0, 1, bytes("7"), null).key()).containsExactly(7);
        assertThat(decoder.decode(0, 2, bytes("7"), bytes("{\"id\": 7, \"name\": \"ann\"}")).key())
            .as("an upsert's key is its row's").containsExactly(7);
        assertThatThrownBy(() -> decoder.decode(0, 3, bytes("seven"), null)).isInstanceOf(MalformedRecordException.class)
            .hasMessage("key \"seven\" does not fit type integer");
        assertThatThrownBy(() -> new SourceRecordDecoder(CUSTOMERS, "json", Map.of("key.format", "xml")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key.format 'xml' is not supported");
    }

    @Test
    void debeziumEnvelopesUpsertAndDelete() {
        SourceRecordDecoder decoder = new SourceRecordDecoder(CUSTOMERS, "debezium-json", Map.of());

        var created = decoder.decode(0, 1, null, bytes("{\"schema\": {}, \"payload\": {\"before\": null, "
            + "\"after\": {\"id\": 7, \"name\": \"ann\"}, \"op\": \"c\", \"ts_ms\": 1}}"));
        var updated = decoder.decode(0, 2, null, bytes("{\"before\": {\"id\": 7, \"name\": \"ann\"}, "
            + "\"after\": {\"id\": 7, \"name\": \"anne\"}, \"op\": \"u\"}"));
        var deleted = decoder.decode(0, 3, null, bytes("{\"before\": {\"id\": 7, \"name\": \"anne\"}, "
            + "\"after\": null, \"op\": \"d\"}"));

        assertThat(created.key()).containsExactly(7);
        assertThat(created.row()).containsExactly(7, "ann");
        assertThat(updated.row()).containsExactly(7, "anne");
        assertThat(deleted.key()).containsExactly(7);
        assertThat(deleted.row()).isNull();
        assertThat(decoder.decode(0, 4, bytes("{\"id\": 7}"), null)).as("the tombstone after a delete").isNull();
        assertThatThrownBy(() -> decoder.decode(0, 5, null, bytes("{\"after\": {\"id\": 1}, \"op\": \"x\"}")))
            .isInstanceOf(MalformedRecordException.class).hasMessage("Debezium op \"x\" is not c, r, u or d");
    }

    @Test
    void aRowWithoutItsPrimaryKeyIsMalformedInEveryFormatThatHasOne() {
        for (String format : List.of("json", "debezium-json", "csv")) {
            SourceRecordDecoder decoder = new SourceRecordDecoder(CUSTOMERS, format, Map.of());
            byte[] keyless = bytes(switch (format) {
                case "json" -> "{\"name\": \"ann\"}";
                case "debezium-json" -> "{\"after\": {\"id\": null, \"name\": \"ann\"}, \"op\": \"c\"}";
                default -> ",ann";
            });

            assertThatThrownBy(() -> decoder.decode(0, 1, null, keyless)).as(format)
                .isInstanceOf(MalformedRecordException.class).hasMessageContaining("\"id\"").hasMessageContaining("null");
        }
    }

    @Test
    void aNullableKeyColumnWithoutAValueIsMalformedToo() {
        RowSchema nullableKey = new RowSchema(List.of(Column.of("id", SqlType.INTEGER), Column.of("name", SqlType.VARCHAR)),
            List.of("id"));
        SourceRecordDecoder decoder = new SourceRecordDecoder(nullableKey, "json", Map.of());

        assertThatThrownBy(() -> decoder.decode(0, 1, null, bytes("{\"name\": \"ann\"}")))
            .isInstanceOf(MalformedRecordException.class).hasMessage("primary key column \"id\" is null");
    }

    @Test
    void aRecordLargerThanTheLimitIsMalformedAndOneAtTheLimitIsRead() {
        SourceRecordDecoder decoder = new SourceRecordDecoder(CUSTOMERS, "json",
            Map.of(SourceRecordDecoder.MAX_RECORD_BYTES, "27"));
        byte[] atLimit = bytes("{\"id\": 1, \"name\": \"abcdef\"}");
        byte[] over = bytes("{\"id\": 1, \"name\": \"abcdefg\"}");

        assertThat(atLimit).hasSize(27);
        assertThat(decoder.decode(0, 1, null, atLimit).row()).containsExactly(1, "abcdef");
        assertThatThrownBy(() -> decoder.decode(0, 2, null, over)).isInstanceOf(MalformedRecordException.class)
            .hasMessage("record of 28 bytes is larger than max_record_bytes (27)");
        assertThatThrownBy(() -> new SourceRecordDecoder(CUSTOMERS, "json", Map.of(SourceRecordDecoder.MAX_RECORD_BYTES, "0")))
            .hasMessage("max_record_bytes must be a positive number of bytes, not '0'");
    }

    @Test
    void jsonTombstonesDeleteByTheirJsonKey() {
        SourceRecordDecoder decoder = new SourceRecordDecoder(CUSTOMERS, "json", Map.of());

        var deleted = decoder.decode(0, 1, bytes("{\"id\": 7}"), null);

        assertThat(deleted.key()).containsExactly(7);
        assertThat(deleted.row()).isNull();
        assertThatThrownBy(() -> decoder.decode(0, 2, null, null)).hasMessage("a tombstone without a key");
    }

    @Test
    void csvLinesAreRowsWithQuotingAndEmptyFieldsAsNull() {
        RowSchema events = new RowSchema(List.of(new Column("id", SqlType.INTEGER, false), Column.of("name", SqlType.VARCHAR),
            Column.of("ok", SqlType.BOOLEAN), Column.of("at", SqlType.TIMESTAMP)), List.of("id"));
        SourceRecordDecoder decoder = new SourceRecordDecoder(events, "csv", Map.of("csv.delimiter", ";"));

        var change = decoder.decode(0, 1, null, bytes("7;\"Smith; \"\"Ann\"\"\";t;2026-11-29 10:00:00"));
        var empty = decoder.decode(0, 2, null, bytes("8;;;"));

        assertThat(change.key()).containsExactly(7);
        assertThat(change.row()).containsExactly(7, "Smith; \"Ann\"", true, 1_795_946_400_000L);
        assertThat(empty.row()).containsExactly(8, null, null, null);
        assertThatThrownBy(() -> decoder.decode(0, 3, null, bytes("9;x")))
            .isInstanceOf(MalformedRecordException.class).hasMessage("a CSV line of 2 fields for 4 columns");
    }

    @Test
    void debeziumNeedsAPrimaryKey() {
        assertThatThrownBy(() -> new SourceRecordDecoder(new RowSchema(List.of(Column.of("a", SqlType.INTEGER)),
            List.of()), "debezium-json", Map.of())).hasMessageContaining("needs a primary key");
    }

    @Test
    void stringAndBytesValuesAreTheOneColumnOfANewRow() {
        SourceRecordDecoder lines = new SourceRecordDecoder(new RowSchema(List.of(Column.of("line", SqlType.VARCHAR)),
            List.of()), "string", Map.of());
        SourceRecordDecoder payloads = new SourceRecordDecoder(new RowSchema(List.of(Column.of("payload", SqlType.BYTEA)),
            List.of()), "bytes", Map.of());

        var line = lines.decode(2, 40, null, bytes("GET /home 200 \"ünïcode\""));
        assertThat(line.key()).containsExactly(2, 40L);
        assertThat(line.row()).containsExactly("GET /home 200 \"ünïcode\"");
        assertThat(payloads.decode(0, 1, null, new byte[] {0, -1, 7}).row()).containsExactly((Object) new byte[] {0, -1, 7});
        assertThat(lines.decode(0, 2, bytes("k"), null)).as("a tombstone adds no row").isNull();
        assertThatThrownBy(() -> lines.decode(0, 3, null, new byte[] {(byte) 0xC3, (byte) 0x28}))
            .isInstanceOf(MalformedRecordException.class).hasMessage("not UTF-8 text");
    }

    @Test
    void stringAndBytesSourcesHaveOneColumnOfTheirTypeAndNoKey() {
        RowSchema twoColumns = new RowSchema(List.of(Column.of("a", SqlType.VARCHAR), Column.of("b", SqlType.VARCHAR)), List.of());
        RowSchema keyed = new RowSchema(List.of(new Column("a", SqlType.VARCHAR, false)), List.of("a"));
        RowSchema text = new RowSchema(List.of(Column.of("a", SqlType.VARCHAR)), List.of());

        assertThat(SourceRecordDecoder.unfitForWholeValue(twoColumns, "string")).get().asString()
            .isEqualTo("a string source has exactly one column, of type character varying, and no primary key: "
                + "each record's whole value is that column");
        assertThat(SourceRecordDecoder.unfitForWholeValue(keyed, "string")).isPresent();
        assertThat(SourceRecordDecoder.unfitForWholeValue(text, "bytes")).get().asString().contains("of type bytea");
        assertThat(SourceRecordDecoder.unfitForWholeValue(text, "string")).isEmpty();
        assertThat(SourceRecordDecoder.unfitForWholeValue(twoColumns, "json")).isEmpty();
        assertThatThrownBy(() -> new SourceRecordDecoder(twoColumns, "string", Map.of()))
            .hasMessageStartingWith("a string source has exactly one column");
    }

    @Test
    void aRecordKeyedByItsPrimaryKeyIsReadAndAnyOtherIsMalformed() {
        SourceRecordDecoder decoder = new SourceRecordDecoder(CUSTOMERS, "json", Map.of("key.is_primary_key", "true"));
        SourceRecordDecoder byString = new SourceRecordDecoder(CUSTOMERS, "json",
            Map.of("key.is_primary_key", "TRUE", "key.format", "string"));

        assertThat(decoder.decode(0, 1, bytes("{\"id\": 7}"), bytes("{\"id\": 7, \"name\": \"ann\"}")).row())
            .containsExactly(7, "ann");
        assertThat(byString.decode(0, 2, bytes("7"), bytes("{\"id\": 7, \"name\": \"ann\"}")).key()).containsExactly(7);
        var delete = decoder.decode(0, 3, bytes("{\"id\": 7}"), null);
        assertThat(delete.key()).as("a delete's key is its record's").containsExactly(7);
        assertThat(delete.row()).isNull();
        assertThatThrownBy(() -> decoder.decode(0, 8, null, null)).isInstanceOf(MalformedRecordException.class)
            .hasMessage("a tombstone without a key");
        assertThatThrownBy(() -> decoder.decode(0, 9, bytes("7"), null)).isInstanceOf(MalformedRecordException.class)
            .hasMessage("not a JSON object");
        assertThatThrownBy(() -> byString.decode(0, 10, bytes("07"), bytes("{\"id\": 7, \"name\": \"ann\"}")))
            .as("a spelling of 7 that a producer hashes elsewhere").isInstanceOf(MalformedRecordException.class)
            .hasMessage("record key, \"07\" is not written as key.is_primary_key needs: \"7\"");
        assertThatThrownBy(() -> decoder.decode(0, 4, null, bytes("{\"id\": 7, \"name\": \"ann\"}")))
            .isInstanceOf(MalformedRecordException.class)
            .hasMessage("a record without a key, though key.is_primary_key says each record's key is its row's primary key");
        assertThatThrownBy(() -> decoder.decode(0, 5, bytes("7"), bytes("{\"id\": 7, \"name\": \"ann\"}")))
            .isInstanceOf(MalformedRecordException.class).hasMessage("record key, not a JSON object");
        assertThatThrownBy(() -> decoder.decode(0, 6, bytes("{\"id\": 8}"), bytes("{\"id\": 7, \"name\": \"ann\"}")))
            .isInstanceOf(MalformedRecordException.class)
            .hasMessage("the record's key is not its row's primary key (key.is_primary_key): [8] is not [7]");
        assertThatThrownBy(() -> byString.decode(0, 7, bytes("seven"), bytes("{\"id\": 7, \"name\": \"ann\"}")))
            .isInstanceOf(MalformedRecordException.class).hasMessage("record key, key \"seven\" does not fit type integer");
    }

    @Test
    void onlyASourceWithAnExactPrimaryKeyCanPromiseItsRecordsAreKeyedByIt() {
        RowSchema noKey = new RowSchema(List.of(Column.of("a", SqlType.INTEGER)), List.of());
        RowSchema numericKey = new RowSchema(List.of(new Column("price", SqlType.DECIMAL, false)), List.of("price"));

        assertThatThrownBy(() -> new SourceRecordDecoder(noKey, "json", Map.of("key.is_primary_key", "true")))
            .hasMessageStartingWith("key.is_primary_key needs a primary key");
        assertThatThrownBy(() -> new SourceRecordDecoder(numericKey, "json", Map.of("key.is_primary_key", "true")))
            .hasMessageStartingWith("key.is_primary_key needs a primary key of exact values: column \"price\" is numeric");
        assertThatThrownBy(() -> new SourceRecordDecoder(CUSTOMERS, "json", Map.of("key.is_primary_key", "yes")))
            .hasMessage("key.is_primary_key must be 'true' or 'false', not 'yes'");
        assertThat(new SourceRecordDecoder(numericKey, "json", Map.of("key.is_primary_key", "false"))
            .decode(0, 1, bytes("{\"price\": 1.5}"), bytes("{\"price\": 1.50}")).key()).as("no promise, no check")
            .containsExactly(new java.math.BigDecimal("1.50"));
    }

    @Test
    void aDebeziumKeyIsReadWithOrWithoutItsSchemaWrapper() {
        SourceRecordDecoder decoder = new SourceRecordDecoder(CUSTOMERS, "debezium-json", Map.of("key.is_primary_key", "true"));
        String created = "{\"payload\": {\"before\": null, \"after\": {\"id\": 7, \"name\": \"ann\"}, \"op\": \"c\"}}";

        assertThat(decoder.decode(0, 1, bytes("{\"schema\": {\"type\": \"struct\"}, \"payload\": {\"id\": 7}}"), bytes(created))
            .row()).containsExactly(7, "ann");
        assertThat(decoder.decode(0, 2, bytes("{\"id\": 7}"), bytes(created)).row()).containsExactly(7, "ann");
        assertThatThrownBy(() -> decoder.decode(0, 3, bytes("{\"payload\": {\"id\": 8}}"), bytes(created)))
            .isInstanceOf(MalformedRecordException.class)
            .hasMessage("the record's key is not its row's primary key (key.is_primary_key): [8] is not [7]");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
