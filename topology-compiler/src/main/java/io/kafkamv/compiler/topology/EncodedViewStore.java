package io.kafkamv.compiler.topology;

import java.util.List;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.internals.MeteredKeyValueStore;
import org.apache.kafka.streams.state.internals.StateStoreProvider;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A partition of a view's store as the bytes Kafka Streams keeps in it, read without the store's deserializing layer:
 * each key in {@link RowCodec}'s form, and the row, or what it is made from ({@link ViewRowReader}). A scan of a million rows through that layer spent a quarter of its
 * time decoding keys no query used and wrapping each row in a {@code ValueAndTimestamp} (issue 21, batch scans).
 *
 * <p>It reaches under the metered store Kafka Streams wraps every store in ({@link MeteredKeyValueStore#wrapped()}
 * is not API): {@code EncodedViewStoreTest} pins the layout for each store {@link PlanOutputs} builds. Reads are as
 * safe as interactive queries': {@code KafkaStreams.store} gives a partition only while it is active and running
 * here, and the stores below lock and track their open iterators.
 *
 * <p>Use it with {@code StoreQueryParameters.withPartition}: one partition per query.
 */
public final class EncodedViewStore implements QueryableStoreType<EncodedViewStore.Partition> {

    /** One store partition's bytes, and how its rows are read from them. */
    public static final class Partition {

        private final ReadOnlyKeyValueStore<Bytes, byte[]> bytes;
        /** Where a stored value's encoding begins: a table's store keeps the row's timestamp before it. */
        private final int valueOffset;
        private final ViewRowReader rows;

        private Partition(ReadOnlyKeyValueStore<Bytes, byte[]> bytes, int valueOffset, ViewRowReader rows) {
            this.bytes = bytes;
            this.valueOffset = valueOffset;
            this.rows = rows;
        }

        /** Every key and stored value of the partition, in key order; close it when done. */
        public KeyValueIterator<Bytes, byte[]> all() {
            return bytes.all();
        }

        /** Whether a stored value is a row: count only those. */
        public boolean holdsRow(byte[] stored) {
            return rows.holdsRow(stored, valueOffset);
        }

        /**
         * The row of a stored entry, every column ({@code columns} null) or those asked for (ascending indexes), in
         * that order; null when the entry is no row ({@link #holdsRow}).
         */
        public Object[] row(KeyValue<Bytes, byte[]> entry, int[] columns) {
            return rows.holdsRow(entry.value, valueOffset)
                ? rows.row(entry.key.get(), entry.value, valueOffset, columns) : null;
        }

        /** The row of a stored entry in {@link RowCodec}'s form, as another instance decodes it; null when none. */
        public byte[] encodedRow(KeyValue<Bytes, byte[]> entry) {
            return rows.holdsRow(entry.value, valueOffset)
                ? rows.encodedRow(entry.key.get(), entry.value, valueOffset) : null;
        }

        /** The row of {@code key}, or null. */
        public Object[] get(Object[] key) {
            byte[] encodedKey = rows.key(key);
            byte[] stored = bytes.get(Bytes.wrap(encodedKey));
            return stored != null && rows.holdsRow(stored, valueOffset)
                ? rows.row(encodedKey, stored, valueOffset, null) : null;
        }

        /** Where a stored value's encoding begins. */
        int valueOffset() {
            return valueOffset;
        }
    }

    /** Made once for the view, not for each partition a read opens. */
    private final ViewRowReader rows;

    /** The store of {@code plan}'s rows. */
    public EncodedViewStore(PhysicalPlan plan) {
        this.rows = ViewRowReader.of(plan);
    }

    /** Every key-value store: one this type cannot read ({@link #of}) is an error of its own, not a store not here. */
    @Override
    public boolean accepts(StateStore store) {
        return store instanceof MeteredKeyValueStore<?, ?>;
    }

    @Override
    public Partition create(StateStoreProvider provider, String storeName) {
        // The provider hands over the stores this type accepted, as they are, whatever its type parameter says.
        List<?> stores = provider.stores(storeName, this);
        if (stores.size() != 1) {
            throw new InvalidStateStoreException("store " + storeName + " was asked for " + stores.size()
                + " partitions at once; ask for one with StoreQueryParameters.withPartition");
        }
        return of((StateStore) stores.get(0), rows);
    }

    /**
     * The bytes of a store this type {@link #accepts}.
     *
     * @throws UnsupportedOperationException for a store that keeps headers with its rows ({@code dsl.store.format})
     */
    public static Partition of(StateStore store, PhysicalPlan plan) {
        return of(store, ViewRowReader.of(plan));
    }

    private static Partition of(StateStore store, ViewRowReader rows) {
        if (WrappedStateStore.isHeadersAware(store)) {
            throw new UnsupportedOperationException("the view's store " + store.name() + " keeps record headers "
                + "(dsl.store.format=headers), which kafka-mv's queries do not read; leave dsl.store.format unset");
        }
        KeyValueStore<Bytes, byte[]> bytes = ((MeteredKeyValueStore<?, ?>) store).wrapped();
        return new Partition(bytes, store instanceof TimestampedKeyValueStore<?, ?> ? Long.BYTES : 0, rows);
    }
}
