package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.Map;

import io.kafkamv.connectors.schema.Column;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where a sink writes its query's changes, and how. A Kafka sink writes JSON or Avro messages to its
 * topic in one of three ways of telling changes apart. A JDBC sink writes upserts to an internal topic, from
 * which the service keeps a PostgreSQL table equal to the rows.
 *
 * @param connector  {@code kafka} or {@code jdbc}
 * @param topic      the topic written: the user's for Kafka, an internal one for JDBC
 * @param keyColumns the columns whose values key each message (the upsert key); empty for none
 * @param jdbc       for a JDBC sink, the table it keeps; absent for Kafka
 * @param formatOptions what the format needs: for Avro, the Schema Registry
 */
public record SinkOutput(String connector, String topic, String format, SinkType type, List<String> keyColumns,
                         boolean forceAppendOnly, @JsonInclude(JsonInclude.Include.NON_NULL) Jdbc jdbc,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> formatOptions) {

    public enum SinkType {
        /** The latest row per key; a deleted row is a tombstone. */
        UPSERT,
        /** Inserted rows only: for queries whose rows never change, or when told to drop changes. */
        APPEND_ONLY,
        /** Debezium's change envelope: before, after and op, then a tombstone after a delete. */
        DEBEZIUM
    }

    /** A PostgreSQL table and how to reach it; the primary key is the sink's key columns. */
    public record Jdbc(String url, String table, String user, String password) {
    }

    public SinkOutput {
        keyColumns = List.copyOf(keyColumns);
        formatOptions = formatOptions == null ? Map.of() : Map.copyOf(formatOptions);
    }

    /** The columns, of a sink's rows, that key its messages, in key order. */
    public List<Column> messageKey(List<Column> columns) {
        return keyColumns.stream()
            .map(key -> columns.stream().filter(column -> column.name().equals(key)).findFirst().orElseThrow())
            .toList();
    }

    // Not named isJdbc: Jackson would store that as a second "jdbc".
    public boolean writesToDatabase() {
        return jdbc != null;
    }
}
