package io.kafkamv.service.query;

import java.util.ArrayList;
import java.util.List;

/**
 * The scans one query opened, closed when the query ends however it ends. Calcite closes what it enumerates when
 * the result set closes, but not when the query fails before it has one (an error in the first rows: Linq4j's
 * iterator reads its first row in its constructor) nor on some operators' error paths; a scan of a view's stores
 * left open pins RocksDB's memory and files until the store closes.
 */
final class OpenScans implements AutoCloseable {

    private final List<AutoCloseable> scans = new ArrayList<>();

    void add(AutoCloseable scan) {
        scans.add(scan);
    }

    /** Closes every scan, each at most once more (closing a closed scan does nothing). */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (AutoCloseable scan : scans) {
            try {
                scan.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("could not close a scan of a view: " + e.getMessage(), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        scans.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
