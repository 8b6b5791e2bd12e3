package io.kafkamv.service.pgwire;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.Notices;
import io.kafkamv.service.result.PgType;
import io.kafkamv.service.result.StatementResult;
import io.kafkamv.service.statement.PreparedStatements;
import io.kafkamv.service.statement.Session;
import io.kafkamv.service.statement.StatementExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extended query protocol of one connection: Parse, Bind, Describe, Execute, Close, Sync.
 * A portal runs its statement when it is first described or executed, so Describe can report the
 * real result columns; parameters are bound as SQL literals.
 */
final class PgExtendedQuery {

    private static final Logger LOG = LoggerFactory.getLogger(PgExtendedQuery.class);

    /**
     * A parsed statement. Its parameter types are those the client declared; those it left unspecified (0) are
     * inferred from the statement when it is described, as PostgreSQL does, and then bound with those types:
     * asyncpg declares none and sends each parameter in the binary form of the described type.
     */
    private static final class Prepared {
        private final String sql;
        private int[] parameterTypes;
        private boolean inferred;

        private Prepared(String sql, int[] parameterTypes) {
            this.sql = sql;
            this.parameterTypes = parameterTypes;
        }
    }

    private static final class Portal {
        private final String sql;
        private final short[] resultFormats;
        private StatementResult result;

        private Portal(String sql, short[] resultFormats) {
            this.sql = sql;
            this.resultFormats = resultFormats;
        }
    }

    private final StatementExecutor executor;
    private final Session session;
    private final Map<String, Prepared> statements = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();
    /** After an error the client's messages up to the next Sync are skipped, as the protocol says. */
    private boolean skipUntilSync;

    PgExtendedQuery(StatementExecutor executor, Session session) {
        this.executor = executor;
        this.session = session;
        session.preparedStatements(new PreparedStatements() {
            @Override
            public boolean deallocate(String name) {
                return statements.remove(name) != null;
            }

            @Override
            public void deallocateAll() {
                statements.clear();
            }
        });
    }

    /** Handles one extended-protocol message; returns false when the type is not one of them. */
    boolean handle(FrontendMessages.Message message, BackendMessages out, Notices notices) throws IOException {
        char type = message.type();
        if ("PBDECHS".indexOf(type) < 0) {
            return false;
        }
        if (type == 'S') {
            skipUntilSync = false;
            out.readyForQuery('I');
            out.flush();
            return true;
        }
        if (type == 'H') {
            out.flush();
            return true;
        }
        if (skipUntilSync) {
            return true;
        }
        try {
            ByteBuffer body = message.body();
            switch (type) {
                case 'P' -> parse(body, out);
                case 'B' -> bind(body, out);
                case 'D' -> describe(body, out, notices);
                case 'E' -> execute(body, out, notices);
                case 'C' -> close(body, out);
                default -> throw new IllegalStateException("unreachable");
            }
        } catch (SqlError error) {
            out.errorResponse(error);
            skipUntilSync = true;
        } catch (BufferUnderflowException truncated) {
            // A message shorter than its own fields say, e.g. a query string with a NUL in it.
            out.errorResponse(SqlError.of(SqlState.PROTOCOL_VIOLATION, "malformed '" + type + "' message"));
            skipUntilSync = true;
        } catch (RuntimeException | AssertionError unexpected) {
            // Calcite reports a planning bug with an AssertionError: one statement's, not the connection's end.
            LOG.error("Extended query message '{}' failed unexpectedly", type, unexpected);
            out.errorResponse(SqlError.internal("internal error: " + unexpected, unexpected));
            skipUntilSync = true;
        }
        return true;
    }

    private void parse(ByteBuffer body, BackendMessages out) throws IOException {
        String name = FrontendMessages.cstring(body);
        String sql = FrontendMessages.cstring(body).strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1);
        }
        int[] types = new int[body.getShort()];
        for (int i = 0; i < types.length; i++) {
            types[i] = body.getInt();
        }
        statements.put(name, new Prepared(sql, types));
        out.parseComplete();
    }

    private void bind(ByteBuffer body, BackendMessages out) throws IOException {
        String portalName = FrontendMessages.cstring(body);
        String statementName = FrontendMessages.cstring(body);
        Prepared prepared = statements.get(statementName);
        if (prepared == null) {
            throw SqlError.of(SqlState.PROTOCOL_VIOLATION, "prepared statement \"" + statementName + "\" does not exist");
        }
        short[] parameterFormats = shorts(body);
        int count = body.getShort();
        List<String> literals = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = body.getInt();
            byte[] value = null;
            if (length >= 0) {
                value = new byte[length];
                body.get(value);
            }
            boolean binary = parameterFormats.length == 1 ? parameterFormats[0] == 1
                : parameterFormats.length > i && parameterFormats[i] == 1;
            int typeOid = i < prepared.parameterTypes.length ? prepared.parameterTypes[i] : 0;
            literals.add(PgParameters.literal(value, typeOid, binary));
        }
        short[] resultFormats = shorts(body);
        portals.put(portalName, new Portal(PgParameters.substitute(prepared.sql, literals), resultFormats));
        out.bindComplete();
    }

    private void describe(ByteBuffer body, BackendMessages out, Notices notices) throws IOException {
        char what = (char) body.get();
        String name = FrontendMessages.cstring(body);
        if (what == 'S') {
            Prepared prepared = statements.get(name);
            if (prepared == null) {
                throw SqlError.of(SqlState.PROTOCOL_VIOLATION, "prepared statement \"" + name + "\" does not exist");
            }
            out.parameterDescription(parameterTypes(prepared));
            var columns = executor.describe(session, prepared.sql);
            if (columns.isEmpty()) {
                out.noData();
            } else {
                out.rowDescription(columns);
            }
            return;
        }
        Portal portal = portal(name);
        run(portal, notices);
        if (portal.result instanceof StatementResult.Rows rows) {
            out.rowDescription(rows.columns(), portal.resultFormats);
        } else {
            out.noData();
        }
    }

    /** One type per parameter: the declared ones, and those left unspecified inferred from the statement. */
    private int[] parameterTypes(Prepared prepared) {
        if (prepared.inferred) {
            return prepared.parameterTypes;
        }
        PgParameters.Placeholders placeholders = PgParameters.placeholders(prepared.sql);
        int[] types = java.util.Arrays.copyOf(prepared.parameterTypes,
            Math.max(prepared.parameterTypes.length, placeholders.count()));
        boolean unspecified = java.util.Arrays.stream(types).anyMatch(type -> type == 0);
        List<SqlType> inferred = unspecified ? executor.parameterTypes(session, placeholders.jdbcSql()) : List.of();
        for (int i = 0; i < types.length; i++) {
            if (types[i] == 0) {
                int place = placeholders.indexes().indexOf(i + 1);
                SqlType type = place >= 0 && place < inferred.size() ? inferred.get(place) : null;
                types[i] = type == null ? PgType.TEXT_OID : PgType.of(type).oid();
            }
        }
        prepared.parameterTypes = types;
        prepared.inferred = true;
        return types;
    }

    private void execute(ByteBuffer body, BackendMessages out, Notices notices) throws IOException {
        Portal portal = portal(FrontendMessages.cstring(body));
        if (portal.sql.isBlank()) {
            out.emptyQueryResponse();
            return;
        }
        run(portal, notices);
        if (portal.result instanceof StatementResult.Rows rows) {
            for (List<Object> row : rows.rows()) {
                out.dataRow(row, rows.columns(), portal.resultFormats);
            }
        }
        out.commandComplete(portal.result.commandTag());
        portal.result = null;
    }

    private void close(ByteBuffer body, BackendMessages out) throws IOException {
        char what = (char) body.get();
        String name = FrontendMessages.cstring(body);
        if (what == 'S') {
            statements.remove(name);
        } else {
            portals.remove(name);
        }
        out.closeComplete();
    }

    private void run(Portal portal, Notices notices) {
        if (portal.result == null && !portal.sql.isBlank()) {
            portal.result = executor.execute(session, portal.sql, notices);
        }
    }

    private Portal portal(String name) {
        Portal portal = portals.get(name);
        if (portal == null) {
            throw SqlError.of(SqlState.PROTOCOL_VIOLATION, "portal \"" + name + "\" does not exist");
        }
        return portal;
    }

    private static short[] shorts(ByteBuffer body) {
        short[] values = new short[body.getShort()];
        for (int i = 0; i < values.length; i++) {
            values[i] = body.getShort();
        }
        return values;
    }
}
