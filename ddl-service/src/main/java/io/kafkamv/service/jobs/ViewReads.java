package io.kafkamv.service.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.kafkamv.compiler.runtime.IndexKeys;
import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.service.auth.BearerTokens;
import org.apache.kafka.common.serialization.BytesSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads of the rows views and indexes hold: this instance's share from the local stores of the jobs
 * it runs, the other instances' shares from their internal REST endpoints.
 */
public final class ViewReads {

    private static final Logger LOG = LoggerFactory.getLogger(ViewReads.class);

    private final LocalJobs local;
    private final String applicationServer;
    private final RemoteViewRows remoteRows;

    ViewReads(LocalJobs local, String applicationServer, BearerTokens tokens) {
        this.local = local;
        this.applicationServer = applicationServer;
        this.remoteRows = new RemoteViewRows(tokens);
    }

    /** The rows of a job's view on this instance, if it runs here and its store is ready. */
    public Optional<ReadOnlyKeyValueStore<Object[], Object[]>> viewStore(long jobId) {
        return local.get(jobId).flatMap(ViewRuntime::store);
    }

    /** Like {@link #viewStore}, waiting up to {@code timeout} for a store that is restoring after a restart. */
    public Optional<ReadOnlyKeyValueStore<Object[], Object[]>> awaitViewStore(long jobId, Duration timeout)
        throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<ReadOnlyKeyValueStore<Object[], Object[]>> store = viewStore(jobId);
        while (store.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            store = viewStore(jobId);
        }
        return store;
    }

    /**
     * All rows of a job's view across the cluster: this instance's partitions from its store, the
     * others' from their REST endpoints. Empty while the local store is not ready within {@code timeout}.
     */
    public Optional<List<Object[]>> viewRows(long jobId, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<ReadOnlyKeyValueStore<Object[], Object[]>> store =
                awaitViewStore(jobId, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            Optional<ViewRuntime> runtime = local.get(jobId);
            if (store.isEmpty() || runtime.isEmpty()) {
                return Optional.empty();
            }
            try {
                List<Object[]> rows = new ArrayList<>();
                try (var iterator = store.get().all()) {
                    iterator.forEachRemaining(entry -> rows.add(entry.value));
                }
                RowCodec codec = new RowCodec(runtime.get().plan().schema().columns());
                for (String host : runtime.get().otherHosts(applicationServer)) {
                    for (byte[] encoded : remoteRows.fetch(host, jobId)) {
                        rows.add(codec.decode(encoded));
                    }
                }
                return Optional.of(rows);
            } catch (InvalidStateStoreException | IllegalStateException moving) {
                // A rebalance moved partitions (here or on another instance) while they were read:
                // read them again where they are now, until the caller's time is up.
                if (System.nanoTime() > deadline) {
                    throw moving;
                }
                LOG.debug("Rows of job {} moved while read; reading again: {}", jobId, moving.toString());
                Thread.sleep(100);
            }
        }
    }

    /**
     * One row of a job's view by key, when this instance holds that key: empty when the answer is
     * elsewhere (or the store is not ready), so the caller can take the general way.
     */
    public Optional<Optional<Object[]>> viewRowByKey(long jobId, Object[] key) {
        Optional<ViewRuntime> runtime = local.get(jobId);
        Optional<ReadOnlyKeyValueStore<Object[], Object[]>> store = viewStore(jobId);
        if (runtime.isEmpty() || store.isEmpty() || !runtime.get().holdsKey(key, applicationServer)) {
            return Optional.empty();
        }
        return Optional.of(Optional.ofNullable(store.get().get(key)));
    }

    /**
     * The rows an index keeps for these values of its columns, across the cluster. Empty when the
     * index does not run here or its local store is not ready within {@code timeout}.
     */
    public Optional<List<Object[]>> indexRows(long jobId, Object[] values, Duration timeout) {
        Optional<ViewRuntime> indexed = local.get(jobId);
        if (indexed.isEmpty()) {
            return Optional.empty();
        }
        byte[] prefix = new IndexKeys(indexed.get().plan()).prefix(values);
        long deadline = System.nanoTime() + timeout.toNanos();
        Optional<List<byte[]>> here = localIndexRows(jobId, prefix);
        try {
            while (here.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                here = localIndexRows(jobId, prefix);
            }
            if (here.isEmpty()) {
                return Optional.empty();
            }
            List<byte[]> encoded = new ArrayList<>(here.get());
            for (String host : indexed.get().otherHosts(applicationServer)) {
                encoded.addAll(remoteRows.fetchIndex(host, jobId, prefix));
            }
            RowCodec codec = new RowCodec(indexed.get().plan().schema().columns());
            return Optional.of(encoded.stream().map(codec::decode).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** This instance's rows of an index under a prefix, encoded, for the instance that looks them up. */
    public Optional<List<byte[]>> localIndexRows(long jobId, byte[] prefix) {
        return local.get(jobId).flatMap(ViewRuntime::indexStore).map(store -> {
            List<byte[]> rows = new ArrayList<>();
            try (var iterator = store.prefixScan(Bytes.wrap(prefix), new BytesSerializer())) {
                iterator.forEachRemaining(entry -> rows.add(entry.value));
            }
            return rows;
        });
    }

    /** This instance's rows of a job's view, encoded, for other instances that read the whole view. */
    public Optional<List<byte[]>> localViewRows(long jobId) {
        Optional<ViewRuntime> runtime = local.get(jobId);
        return viewStore(jobId).map(store -> {
            RowCodec codec = new RowCodec(runtime.orElseThrow().plan().schema().columns());
            List<byte[]> rows = new ArrayList<>();
            try (var iterator = store.all()) {
                iterator.forEachRemaining(entry -> rows.add(codec.encode(entry.value)));
            }
            return rows;
        });
    }
}
