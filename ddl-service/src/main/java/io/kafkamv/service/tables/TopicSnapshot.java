package io.kafkamv.service.tables;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.kafkamv.compiler.Relation;
import io.kafkamv.connectors.format.MalformedRecordException;
import io.kafkamv.connectors.format.SourceRecordDecoder;
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
        SourceRecordDecoder source = table.hasNativeFormat() ? null : new SourceRecordDecoder(table.schema(), table.format(), table.formatOptions());
        RowCodec keys = new RowCodec(table.key());
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
                    if (source != null) {
                        readSourceRecord(record, source, keys, rows);
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

    /** A source's record as views read it: an upsert or delete by primary key, or an insert; unreadable ones skipped. */
    private static void readSourceRecord(ConsumerRecord<byte[], byte[]> record, SourceRecordDecoder decoder,
                                         RowCodec keys, Map<Bytes, Object[]> rows) {
        SourceRecordDecoder.Change change;
        try {
            change = decoder.decode(record.partition(), record.offset(), record.key(), record.value());
        } catch (MalformedRecordException e) {
            return;
        }
        if (change == null) {
            return;
        }
        Bytes key = Bytes.wrap(keys.encode(change.key()));
        if (change.row() == null) {
            rows.remove(key);
        } else {
            rows.put(key, change.row());
        }
    }
}
