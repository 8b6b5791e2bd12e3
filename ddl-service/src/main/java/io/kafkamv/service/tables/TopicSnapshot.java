package io.kafkamv.service.tables;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kafkamv.compiler.Relation;
import io.kafkamv.connectors.format.JsonRowDecoder;
import io.kafkamv.connectors.format.MalformedRecordException;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Bytes;

/**
 * A table's current rows, read from its topic up to the end offsets of the moment of the read:
 * the latest value per key, without deleted keys.
 */
public final class TopicSnapshot {

    private TopicSnapshot() {
    }

    public static List<Object[]> read(Properties clientProperties, Relation table) {
        Properties properties = new Properties();
        properties.putAll(clientProperties);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 * 1024 * 1024));
        RowCodec values = new RowCodec(table.schema().columns());
        JsonRowDecoder json = table.hasNativeFormat() ? null : new JsonRowDecoder(table.schema().columns());
        Map<Bytes, Object[]> rows = new LinkedHashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                 new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(table.topic()).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() >= end.get(new TopicPartition(record.topic(), record.partition()))) {
                        continue;
                    }
                    if (json != null) {
                        readSourceRecord(record, json, table, rows);
                        continue;
                    }
                    Bytes key = Bytes.wrap(record.key());
                    if (record.value() == null) {
                        rows.remove(key);
                    } else {
                        rows.put(key, values.decode(record.value()));
                    }
                }
            }
        }
        return new ArrayList<>(rows.values());
    }

    /** A source's record as views read it: an upsert by primary key, or an insert; unreadable ones skipped. */
    private static void readSourceRecord(ConsumerRecord<byte[], byte[]> record, JsonRowDecoder json, Relation source,
                                         Map<Bytes, Object[]> rows) {
        if (record.value() == null) {
            return;
        }
        Object[] row;
        try {
            row = json.decode(record.value());
        } catch (MalformedRecordException e) {
            return;
        }
        List<String> keys = source.schema().keyColumns();
        Object[] key = keys.isEmpty() ? new Object[] {record.partition(), record.offset()}
            : keys.stream().map(name -> row[source.schema().columns().indexOf(source.schema().column(name).orElseThrow())])
                .toArray();
        rows.put(Bytes.wrap(new RowCodec(source.key()).encode(key)), row);
    }
}
