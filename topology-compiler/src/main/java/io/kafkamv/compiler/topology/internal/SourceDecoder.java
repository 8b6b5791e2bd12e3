package io.kafkamv.compiler.topology.internal;

import java.nio.charset.StandardCharsets;

import io.kafkamv.compiler.plan.SourceScanStep;
import io.kafkamv.connectors.format.DeadLetters;
import io.kafkamv.connectors.format.MalformedRecordException;
import io.kafkamv.connectors.format.SourceRecordDecoder;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes a source record into its key and row, or marks it malformed: the record then keeps its
 * bytes and gains a {@code kmv.error} header with the reason, for the dead-letter topic.
 *
 * @param <K> the type of the stream's keys ({@link SourceKeys})
 */
public final class SourceDecoder<K> implements FixedKeyProcessor<K, byte[], SourceDecoder.Decoded> {

    private static final Logger LOG = LoggerFactory.getLogger(SourceDecoder.class);

    /**
     * The kinds of malformed records already logged, per job and source step: each kind is logged once,
     * the rest only counted, so a topic full of bad records cannot flood the log. Bounded, in case
     * kinds are many (a reason naming every record's own field, say).
     */
    private static final java.util.Set<String> LOGGED_KINDS = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static final int MAX_LOGGED_KINDS = 10_000;

    /** The Kafka Streams sensor scope of the dead-letter count: {@code stream-kafkamv-metrics}, one entity per source step. */
    static final String METRICS_SCOPE = "kafkamv";
    static final String DEAD_LETTERS = "dead-letters";

    /**
     * A decoded record: a change to a row (its row null for a delete), or the original bytes of its key and value when it
     * could not be read (its value's never null).
     */
    public record Decoded(Object[] key, Object[] row, byte[] rawKey, byte[] raw) {
        public boolean ok() {
            return raw == null;
        }
    }

    private final String stepId;
    private final SourceRecordDecoder decoder;
    private final SourceKeys<K> keys;
    private FixedKeyProcessorContext<K, Decoded> context;
    private Sensor deadLetters;

    public SourceDecoder(SourceScanStep step, SourceKeys<K> keys) {
        this.stepId = step.id();
        this.decoder = new SourceRecordDecoder(step.schema(), step.format(), step.formatOptions());
        this.keys = keys;
    }

    @Override
    public void init(FixedKeyProcessorContext<K, Decoded> context) {
        this.context = context;
        // A Streams sensor rather than a counter of our own, so the count reaches /metrics with the rest of the
        // job's Kafka Streams metrics (tagged by job and object), and a view reports its own dead letters.
        this.deadLetters = context.metrics().addRateTotalSensor(METRICS_SCOPE, stepId, DEAD_LETTERS,
            Sensor.RecordingLevel.INFO);
    }

    @Override
    public void process(FixedKeyRecord<K, byte[]> record) {
        var metadata = context.recordMetadata().orElseThrow();
        byte[] rawKey = keys.raw(record.key());
        SourceRecordDecoder.Change change;
        try {
            change = decoder.decode(metadata.partition(), metadata.offset(), record.timestamp(), record.headers(), rawKey,
                record.value());
        } catch (MalformedRecordException e) {
            record.headers().add(DeadLetters.ERROR_HEADER, e.getMessage().getBytes(StandardCharsets.UTF_8));
            record.headers().add(DeadLetters.POSITION_HEADER, DeadLetters.position(metadata.partition(), metadata.offset()));
            deadLetters.record();
            logOnce(e, metadata.topic(), metadata.partition(), metadata.offset());
            byte[] raw = record.value() == null ? new byte[0] : record.value();
            context.forward(record.withValue(new Decoded(null, null, rawKey, raw)));
            return;
        }
        // Outside the try: what the rest of the view does with the row is not this record's fault.
        if (change != null) {
            keys.fill(record.key(), change.key());
            context.forward(record.withValue(new Decoded(change.key(), change.row(), null, null)));
        }
    }

    private void logOnce(MalformedRecordException e, String topic, int partition, long offset) {
        String kind = context.applicationId() + "/" + stepId + "/" + e.kind();
        if (LOGGED_KINDS.size() < MAX_LOGGED_KINDS && LOGGED_KINDS.add(kind)) {
            LOG.warn("{}: the record at {}:{} offset {} cannot be read ({}); it went to the dead-letter topic. "
                + "Records with this problem are not logged again, only counted (dead-letters-total, SHOW SOURCES)",
                context.applicationId(), topic, partition, offset, e.getMessage());
        }
    }
}
