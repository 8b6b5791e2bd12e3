package io.kafkamv.compiler.topology;

import java.util.List;

import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.common.utils.Bytes;
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
 * A partition of a view's store as the bytes Kafka Streams keeps in it: each key and row in {@link RowCodec}'s form,
 * read without the store's deserializing layer. A scan of a million rows through that layer spent a quarter of its
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

    /**
     * One store partition's bytes.
     *
     * @param rowOffset where a row's encoding begins in a stored value: a table's store keeps the row's timestamp
     *                  before it
     */
    public record Partition(ReadOnlyKeyValueStore<Bytes, byte[]> bytes, int rowOffset) {

        /** Every key and stored value of the partition, in key order; close it when done. */
        public KeyValueIterator<Bytes, byte[]> all() {
            return bytes.all();
        }

        /** The row of a stored value, in {@link RowCodec}'s form, without what the store keeps before it. */
        public byte[] row(byte[] stored) {
            return rowOffset == 0 ? stored : java.util.Arrays.copyOfRange(stored, rowOffset, stored.length);
        }
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
        return of((StateStore) stores.get(0));
    }

    /**
     * The bytes of a store this type {@link #accepts}.
     *
     * @throws UnsupportedOperationException for a store that keeps headers with its rows ({@code dsl.store.format})
     */
    public static Partition of(StateStore store) {
        if (WrappedStateStore.isHeadersAware(store)) {
            throw new UnsupportedOperationException("the view's store " + store.name() + " keeps record headers "
                + "(dsl.store.format=headers), which kafka-mv's queries do not read; leave dsl.store.format unset");
        }
        KeyValueStore<Bytes, byte[]> bytes = ((MeteredKeyValueStore<?, ?>) store).wrapped();
        return new Partition(bytes, store instanceof TimestampedKeyValueStore<?, ?> ? Long.BYTES : 0);
    }
}
