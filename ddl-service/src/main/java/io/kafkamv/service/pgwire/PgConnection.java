package io.kafkamv.service.pgwire;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.functions.SystemFunctions;
import io.kafkamv.compiler.parser.Redaction;
import io.kafkamv.compiler.types.PostgresTextOutput;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.Notices;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;
import io.kafkamv.service.statement.ScriptRunner;
import io.kafkamv.service.statement.Session;
import io.kafkamv.service.statement.StatementExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One client connection: the startup handshake, then messages until the client leaves. */
final class PgConnection implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(PgConnection.class);

    /**
     * pgjdbc sends {@code SET extra_float_digits} to servers older than 9; psql picks its catalog
     * queries by this version. We speak as PostgreSQL 13 does.
     */
    static final String SERVER_VERSION = SystemFunctions.SERVER_VERSION + " (kafka-mv)";

    /** A client that asked for TLS and then says nothing does not keep a thread for longer. */
    private static final int HANDSHAKE_TIMEOUT = 30_000;
    /** PostgreSQL's authentication_timeout: a client that has not authenticated by then is dropped. */
    static final int AUTHENTICATION_TIMEOUT = 60_000;

    private final Socket socket;
    private final StatementExecutor executor;
    private final ScriptRunner scripts;
    private final PgSessionRegistry registry;
    private final PgAuthentication authentication;
    private final PgTls tls;
    private Session session;
    private FrontendMessages in;
    private BackendMessages out;
    /** The TLS layer over {@link #socket} once the client asked for it; closing it says goodbye in TLS. */
    private Socket secure;
    private volatile boolean authenticated;

    /** @param tls null when the endpoint has no TLS */
    PgConnection(Socket socket, StatementExecutor executor, PgSessionRegistry registry, PgAuthentication authentication,
                 PgTls tls) {
        this.socket = socket;
        this.executor = executor;
        this.scripts = new ScriptRunner(executor);
        this.registry = registry;
        this.authentication = authentication;
        this.tls = tls;
    }

    @Override
    public void run() {
        PgSessionRegistry.Key key = null;
        try (socket) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(AUTHENTICATION_TIMEOUT);
            in = new FrontendMessages(socket.getInputStream());
            out = new BackendMessages(socket.getOutputStream());
            Map<String, String> parameters = handshake();
            if (parameters == null) {
                return;
            }
            String user = parameters.getOrDefault("user", "root");
            if (authentication.required() && !authentication.authenticate(user, in, out)) {
                LOG.info("Password authentication failed for user {} from {}", user, socket.getRemoteSocketAddress());
                out.errorResponse(SqlError.of(SqlState.INVALID_PASSWORD,
                    "password authentication failed for user \"" + user + "\""));
                out.flush();
                return;
            }
            authenticated = true;
            in.authenticated();
            socket.setSoTimeout(0);
            if (secure != null) {
                secure.setSoTimeout(0);
            }
            session = executor.openSession(user,
                parameters.getOrDefault("database", "dev"));
            session.streamCopyData();
            key = registry.register(session);
            greet(out, parameters, key);
            serve(in, out);
        } catch (IOException e) {
            LOG.debug("Connection from {} ended: {}", socket.getRemoteSocketAddress(), e.toString());
        } finally {
            if (key != null) {
                registry.unregister(key);
            }
            closeTls();
        }
    }

    /** Whether the client got past startup and authentication: until then it has a deadline (see PgWireServer). */
    boolean authenticated() {
        return authenticated;
    }

    /**
     * Refuses the client, as PostgreSQL does when max_connections are in use: after its startup message (and the
     * TLS it asks for), a FATAL 53300.
     */
    public void refuseTooManyClients() {
        try (socket) {
            socket.setSoTimeout(HANDSHAKE_TIMEOUT);
            in = new FrontendMessages(socket.getInputStream());
            out = new BackendMessages(socket.getOutputStream());
            if (handshake() != null) {
                out.fatalResponse(SqlError.of(SqlState.TOO_MANY_CONNECTIONS, "sorry, too many clients already"));
                out.flush();
            }
        } catch (IOException e) {
            LOG.debug("Refusing a connection from {}: {}", socket.getRemoteSocketAddress(), e.toString());
        } finally {
            closeTls();
        }
    }

    private void closeTls() {
        if (secure != null) {
            try {
                secure.close();
            } catch (IOException e) {
                LOG.debug("Closing TLS to {}: {}", socket.getRemoteSocketAddress(), e.toString());
            }
        }
    }

    /**
     * Answers an SSL request with a TLS handshake when the endpoint has TLS (and with "no" otherwise, as
     * it does GSS requests) until a startup message arrives; null if none will.
     */
    private Map<String, String> handshake() throws IOException {
        boolean encrypted = false;
        while (true) {
            FrontendMessages.Startup startup = in.readStartup();
            switch (startup.code()) {
                case FrontendMessages.SSL_REQUEST -> {
                    if (tls == null || encrypted) {
                        out.sslRefused();
                    } else if (in.hasUnreadBytes()) {
                        // Bytes sent before the TLS handshake could be injected by anyone on the path
                        // (CVE-2021-23214 in PostgreSQL): refuse the connection, as PostgreSQL does.
                        LOG.info("Refused a connection from {} that sent data after its SSL request",
                            socket.getRemoteSocketAddress());
                        return null;
                    } else {
                        out.sslAccepted();
                        secure = tls.accept(socket, HANDSHAKE_TIMEOUT);
                        secure.setSoTimeout(AUTHENTICATION_TIMEOUT);
                        in = new FrontendMessages(secure.getInputStream());
                        out = new BackendMessages(secure.getOutputStream());
                        encrypted = true;
                    }
                }
                case FrontendMessages.GSSENC_REQUEST -> out.sslRefused();
                case FrontendMessages.CANCEL_REQUEST -> {
                    registry.cancel(startup.body().getInt(), startup.body().getInt());
                    return null;
                }
                case FrontendMessages.PROTOCOL_3_0 -> {
                    if (tls != null && tls.required() && !encrypted) {
                        LOG.debug("Refused a connection without TLS from {}", socket.getRemoteSocketAddress());
                        out.errorResponse(SqlError.at(SqlState.INVALID_AUTHORIZATION, "this server requires TLS", 0,
                            "connect with sslmode=require (psql, pgjdbc) or stronger"));
                        out.flush();
                        return null;
                    }
                    return startup.parameters();
                }
                default -> {
                    out.errorResponse(SqlError.of(SqlState.PROTOCOL_VIOLATION,
                        "unsupported frontend protocol " + (startup.code() >> 16) + "." + (startup.code() & 0xFFFF)
                            + ": server supports 3.0"));
                    out.flush();
                    return null;
                }
            }
        }
    }

    private void greet(BackendMessages out, Map<String, String> parameters, PgSessionRegistry.Key key)
        throws IOException {
        out.authenticationOk();
        out.parameterStatus("server_version", SERVER_VERSION);
        out.parameterStatus("server_encoding", "UTF8");
        out.parameterStatus("client_encoding", "UTF8");
        out.parameterStatus("DateStyle", "ISO, MDY");
        // psycopg 3 reads interval text only knowing this style, which PostgreSQL announces too.
        out.parameterStatus("IntervalStyle", "postgres");
        out.parameterStatus("TimeZone", "UTC");
        out.parameterStatus("integer_datetimes", "on");
        out.parameterStatus("standard_conforming_strings", "on");
        out.parameterStatus("is_superuser", "on");
        out.parameterStatus("session_authorization", session.user());
        out.parameterStatus("application_name", parameters.getOrDefault("application_name", ""));
        out.backendKeyData(key.processId(), key.secret());
        out.readyForQuery('I');
        out.flush();
    }

    private void serve(FrontendMessages in, BackendMessages out) throws IOException {
        PgExtendedQuery extended = new PgExtendedQuery(executor, session);
        Notices notices = notice(out);
        FrontendMessages.Message message;
        while ((message = in.read()) != null) {
            if (extended.handle(message, out, notices)) {
                continue;
            }
            switch (message.type()) {
                case 'Q' -> simpleQuery(FrontendMessages.cstring(message.body()), in, out);
                case 'd', 'c', 'f' -> {
                    // The rest of a COPY's data after it failed: PostgreSQL ignores it too.
                }
                case 'X' -> {
                    return;
                }
                default -> {
                    out.errorResponse(SqlError.of(SqlState.PROTOCOL_VIOLATION,
                        "message type '" + message.type() + "' is not supported"));
                    out.readyForQuery('I');
                    out.flush();
                }
            }
        }
    }

    /** Progress notices go out at once, so psql shows them while the statement runs. */
    private static Notices notice(BackendMessages out) {
        return message -> {
            try {
                out.notice(message);
                out.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
    }

    /** Runs each statement in turn; the first error ends the query string, as in PostgreSQL. */
    private void simpleQuery(String query, FrontendMessages in, BackendMessages out) throws IOException {
        ScriptRunner.Run run = scripts.start(session, query);
        if (run.isEmpty()) {
            out.emptyQueryResponse();
        }
        while (run.hasNext()) {
            ScriptRunner.Outcome outcome;
            try {
                outcome = run.next(notice(out));
            } catch (RuntimeException | AssertionError unexpected) {
                // Calcite reports a planning bug with an AssertionError: one statement's, not the connection's end.
                LOG.error("Statement failed unexpectedly: {}", Redaction.statement(query), unexpected);
                out.errorResponse(SqlError.internal("internal error: " + unexpected, unexpected));
                break;
            }
            if (outcome instanceof ScriptRunner.Failed failed) {
                out.errorResponse(failed.error());
            } else if (outcome instanceof ScriptRunner.Completed completed
                && completed.result() instanceof StatementResult.CopyIn copyIn) {
                if (!copyIn(copyIn, in, out)) {
                    break;
                }
            } else if (outcome instanceof ScriptRunner.Completed completed
                && completed.result() instanceof StatementResult.CopyOut copyOut) {
                copyOut(copyOut, out);
            } else if (outcome instanceof ScriptRunner.Completed completed) {
                if (completed.result() instanceof StatementResult.Rows rows) {
                    out.rowDescription(rows.columns());
                    for (var row : rows.rows()) {
                        out.dataRow(row, rows.columns(), new short[0]);
                    }
                }
                out.commandComplete(completed.result().commandTag());
            }
        }
        out.readyForQuery('I');
        out.flush();
    }

    /**
     * Reads the client's COPY data into the sink until CopyDone, then completes with the count; returns false when
     * the copy failed (the client's CopyFail, or a row that cannot be read), which ends the query string.
     */
    private boolean copyIn(StatementResult.CopyIn copy, FrontendMessages in, BackendMessages out) throws IOException {
        out.copyResponse('G', copy.columnCount());
        out.flush();
        FrontendMessages.Message message;
        SqlError failure = null;
        while ((message = in.read()) != null) {
            char type = message.type();
            if (type == 'd' && failure == null) {
                byte[] chunk = new byte[message.body().remaining()];
                message.body().get(chunk);
                try {
                    copy.sink().accept(chunk);
                } catch (SqlError error) {
                    // PostgreSQL reports at once, and ignores the data the client still sends.
                    out.errorResponse(error);
                    out.flush();
                    failure = error;
                }
            } else if (type == 'c') {
                if (failure != null) {
                    return false;
                }
                try {
                    out.commandComplete("COPY " + copy.sink().finish());
                    return true;
                } catch (SqlError error) {
                    out.errorResponse(error);
                    return false;
                }
            } else if (type == 'f') {
                if (failure == null) {
                    out.errorResponse(SqlError.of(SqlState.QUERY_CANCELED, "COPY from stdin failed: "
                        + FrontendMessages.cstring(message.body())));
                }
                return false;
            } else if (type == 'H' || type == 'S') {
                // Flush and Sync may come in copy mode; they mean nothing here.
                continue;
            } else if (type != 'd') {
                out.errorResponse(SqlError.of(SqlState.PROTOCOL_VIOLATION,
                    "unexpected message type '" + type + "' during COPY from stdin"));
                return false;
            }
        }
        throw new java.io.EOFException("the client left during COPY from stdin");
    }

    private static void copyOut(StatementResult.CopyOut copy, BackendMessages out) throws IOException {
        StatementResult.Rows rows = copy.rows();
        out.copyResponse('H', rows.columns().size());
        if (copy.format().header()) {
            out.copyData(copy.format().line(rows.columns().stream().map(ResultColumn::name).toList())
                .getBytes(StandardCharsets.UTF_8));
        }
        for (List<Object> row : rows.rows()) {
            List<String> fields = new java.util.ArrayList<>(row.size());
            for (int i = 0; i < row.size(); i++) {
                Object value = row.get(i);
                fields.add(value == null ? null : PostgresTextOutput.format(value, rows.columns().get(i).type()));
            }
            out.copyData(copy.format().line(fields).getBytes(StandardCharsets.UTF_8));
        }
        out.copyDone();
        out.commandComplete(copy.commandTag());
    }
}
