package io.kafkamv.compiler.topology.internal;

import java.util.Map;

import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Drops the rows read from a partition below an offset: a view that joined a shared topology already holds what came
 * before (docs/concepts.md, "Many views on one instance", busy sources), while the scan it shares there reads on from
 * an earlier position. Only the joining view's branch has one.
 */
public final class SkipBelow implements FixedKeyProcessor<Object[], Object[], Object[]> {

    /** The first offset to keep, by {@code topic:partition}; a partition not named keeps everything. */
    private final Map<String, Long> readFrom;
    private FixedKeyProcessorContext<Object[], Object[]> context;

    public SkipBelow(Map<String, Long> readFrom) {
        this.readFrom = Map.copyOf(readFrom);
    }

    @Override
    public void init(FixedKeyProcessorContext<Object[], Object[]> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<Object[], Object[]> record) {
        RecordMetadata metadata = context.recordMetadata().orElse(null);
        if (metadata != null && metadata.topic() != null) {
            Long from = readFrom.get(metadata.topic() + ":" + metadata.partition());
            if (from != null && metadata.offset() < from) {
                return;
            }
        }
        context.forward(record);
    }
}
