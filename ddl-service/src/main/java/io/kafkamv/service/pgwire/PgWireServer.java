package io.kafkamv.service.pgwire;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kafkamv.service.statement.StatementExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL wire protocol endpoint. A thread per connection: statements block on Kafka and on
 * Kafka Streams anyway, and a few hundred sessions fit well within that model.
 */
public final class PgWireServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PgWireServer.class);

    private final ServerSocket serverSocket;
    private final StatementExecutor executor;
    private final PgSessionRegistry registry = new PgSessionRegistry();
    private final PgAuthentication authentication;
    private final PgTls tls;
    private final ExecutorService connections;
    private final Thread acceptor;
    private final Set<Socket> openSockets = ConcurrentHashMap.newKeySet();
    private final int maxConnections;
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "pgwire-deadlines");
        thread.setDaemon(true);
        return thread;
    });
    /** Clients beyond the limit that are told so (53300) at once; any more are closed without a word. */
    private static final int REFUSED_AT_ONCE = 16;

    public PgWireServer(InetAddress bindAddress, int port, StatementExecutor executor, PgAuthentication authentication,
                        Optional<PgTls> tls, int maxConnections) throws IOException {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("max connections must be at least 1, not " + maxConnections);
        }
        this.maxConnections = maxConnections;
        this.executor = executor;
        this.authentication = authentication;
        this.tls = tls.orElse(null);
        this.serverSocket = new ServerSocket();
        serverSocket.setReuseAddress(true);
        serverSocket.bind(new InetSocketAddress(bindAddress, port), 128);
        AtomicInteger counter = new AtomicInteger();
        // One thread per connection; a finished connection's thread ends after a few idle seconds
        // rather than the minute a cached pool keeps it, so a burst of clients leaves nothing behind.
        this.connections = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 5, TimeUnit.SECONDS, new SynchronousQueue<>(),
            runnable -> {
                Thread thread = new Thread(runnable, "pgwire-connection-" + counter.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
        this.acceptor = new Thread(this::acceptLoop, "pgwire-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
        LOG.info("PostgreSQL wire protocol listening on {} ({}; {})", serverSocket.getLocalSocketAddress(),
            authentication.required() ? "SCRAM-SHA-256 passwords" : "trust: no passwords",
            this.tls == null ? "no TLS" : this.tls.required() ? "TLS required" : "TLS offered");
        if (!authentication.required() && !bindAddress.isLoopbackAddress()) {
            LOG.warn("Anyone who reaches {} can connect without a password: set --pg-users-file", serverSocket.getLocalSocketAddress());
        }
    }

    /** Client connections open now, whether or not they got as far as a session. */
    public int openConnections() {
        return openSockets.size();
    }

    /** Sessions open now: connections that passed startup and authentication. */
    public int openSessions() {
        return registry.size();
    }

    public int port() {
        return serverSocket.getLocalPort();
    }

    private void acceptLoop() {
        while (!serverSocket.isClosed()) {
            try {
                Socket socket = serverSocket.accept();
                int open = openSockets.size();
                if (open >= maxConnections + REFUSED_AT_ONCE) {
                    LOG.warn("Closed a PostgreSQL connection from {}: {} connections are open already",
                        socket.getRemoteSocketAddress(), open);
                    socket.close();
                    continue;
                }
                boolean tooMany = open >= maxConnections;
                openSockets.add(socket);
                PgConnection connection = new PgConnection(socket, executor, registry, authentication, tls);
                // A deadline for the whole handshake, as PostgreSQL's authentication_timeout: the socket's read
                // timeout alone starts again with every byte, so a byte a minute would hold a place for ever.
                ScheduledFuture<?> deadline = deadlines.schedule(() -> {
                    if (!connection.authenticated()) {
                        LOG.info("Closed a PostgreSQL connection from {} that did not authenticate within {} s",
                            socket.getRemoteSocketAddress(), PgConnection.AUTHENTICATION_TIMEOUT / 1000);
                        closeQuietly(socket);
                    }
                }, PgConnection.AUTHENTICATION_TIMEOUT, TimeUnit.MILLISECONDS);
                connections.execute(() -> {
                    try {
                        if (tooMany) {
                            LOG.warn("Refused a PostgreSQL connection from {}: all {} connections are in use",
                                socket.getRemoteSocketAddress(), maxConnections);
                            connection.refuseTooManyClients();
                        } else {
                            connection.run();
                        }
                    } finally {
                        deadline.cancel(false);
                        openSockets.remove(socket);
                    }
                });
            } catch (SocketException closed) {
                return;
            } catch (IOException e) {
                LOG.warn("Accepting a PostgreSQL connection failed: {}", e.toString());
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("Closing {}: {}", socket.getRemoteSocketAddress(), e.toString());
        }
    }

    @Override
    public void close() throws IOException {
        deadlines.shutdownNow();
        serverSocket.close();
        for (Socket socket : openSockets) {
            socket.close();
        }
        connections.shutdownNow();
        try {
            connections.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
