package io.kafkamv.compiler.plan;

import java.util.List;

/**
 * Where a sink writes its query's changes, and how: a Kafka topic, JSON, and one of three ways of
 * telling changes apart.
 *
 * @param keyColumns the columns whose values key each message (the upsert key); empty for none
 */
public record SinkOutput(String topic, String format, SinkType type, List<String> keyColumns, boolean forceAppendOnly) {

    public enum SinkType {
        /** The latest row per key; a deleted row is a tombstone. */
        UPSERT,
        /** Inserted rows only: for queries whose rows never change, or when told to drop changes. */
        APPEND_ONLY,
        /** Debezium's change envelope: before, after and op, then a tombstone after a delete. */
        DEBEZIUM
    }

    public SinkOutput {
        keyColumns = List.copyOf(keyColumns);
    }
}
