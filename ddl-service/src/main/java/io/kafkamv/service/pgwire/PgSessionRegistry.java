package io.kafkamv.service.pgwire;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kafkamv.service.statement.Session;

/**
 * The open sessions by the key each client got in BackendKeyData. A CancelRequest arrives on a
 * new connection with that key; the random secret keeps one client from cancelling another's work.
 */
final class PgSessionRegistry {

    record Key(int processId, int secret) {
    }

    private final Map<Integer, Entry> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger nextProcessId = new AtomicInteger(1);
    private final SecureRandom random = new SecureRandom();

    private record Entry(int secret, Session session) {
    }

    Key register(Session session) {
        Key key = new Key(nextProcessId.getAndIncrement(), random.nextInt());
        sessions.put(key.processId(), new Entry(key.secret(), session));
        return key;
    }

    int size() {
        return sessions.size();
    }

    void unregister(Key key) {
        sessions.remove(key.processId());
    }

    void cancel(int processId, int secret) {
        Entry entry = sessions.get(processId);
        if (entry != null && entry.secret() == secret) {
            entry.session().cancelRunningStatement();
        }
    }
}
