package io.kafkamv.compiler.topology;

import java.nio.charset.StandardCharsets;

import io.kafkamv.compiler.plan.SourceScanStep;
import io.kafkamv.connectors.format.JsonRowDecoder;
import io.kafkamv.connectors.format.MalformedRecordException;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Decodes a source record into its key and row, or marks it malformed: the record then keeps its
 * bytes and gains a {@code kmv.error} header with the reason, for the dead-letter topic.
 */
final class SourceDecoder implements FixedKeyProcessor<byte[], byte[], SourceDecoder.Decoded> {

    static final String ERROR_HEADER = "kmv.error";

    /** A decoded record: key and row, or the original bytes when it could not be read. */
    record Decoded(Object[] key, Object[] row, byte[] raw) {
        boolean ok() {
            return row != null;
        }
    }

    private final JsonRowDecoder decoder;
    private final int[] keyColumns;
    private FixedKeyProcessorContext<byte[], Decoded> context;

    SourceDecoder(SourceScanStep step) {
        if (!"json".equals(step.format())) {
            throw new IllegalArgumentException("source format " + step.format() + " is not supported");
        }
        this.decoder = new JsonRowDecoder(step.schema().columns());
        this.keyColumns = step.schema().keyColumns().stream()
            .mapToInt(name -> step.schema().columns().indexOf(step.schema().column(name).orElseThrow()))
            .toArray();
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], Decoded> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], byte[]> record) {
        if (record.value() == null) {
            return;
        }
        try {
            Object[] row = decoder.decode(record.value());
            context.forward(record.withValue(new Decoded(key(row), row, null)));
        } catch (MalformedRecordException e) {
            record.headers().add(ERROR_HEADER, e.getMessage().getBytes(StandardCharsets.UTF_8));
            context.forward(record.withValue(new Decoded(null, null, record.value())));
        }
    }

    private Object[] key(Object[] row) {
        if (keyColumns.length == 0) {
            var metadata = context.recordMetadata().orElseThrow();
            return new Object[] {metadata.partition(), metadata.offset()};
        }
        Object[] key = new Object[keyColumns.length];
        for (int i = 0; i < keyColumns.length; i++) {
            key[i] = row[keyColumns[i]];
        }
        return key;
    }
}
