package io.kafkamv.connectors.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.kafkamv.connectors.schema.Column;

/**
 * Applies batches of row changes to a PostgreSQL table in one transaction each: upserts with
 * {@code INSERT ... ON CONFLICT (key) DO UPDATE}, deletes by key. Applying a batch twice leaves the
 * table as applying it once, which is what makes replays after a crash harmless.
 */
public final class JdbcUpsertWriter implements AutoCloseable {

    private final JdbcTarget target;
    private final String upsert;
    private final String delete;
    private final int[] keyPositions;
    private Connection connection;

    public JdbcUpsertWriter(JdbcTarget target) {
        this.target = target;
        List<String> names = target.columns().stream().map(Column::name).toList();
        this.keyPositions = target.keyColumns().stream().mapToInt(names::indexOf).toArray();
        String columns = names.stream().map(JdbcUpsertWriter::quote).collect(Collectors.joining(", "));
        String values = target.columns().stream().map(JdbcUpsertWriter::placeholder).collect(Collectors.joining(", "));
        String keys = target.keyColumns().stream().map(JdbcUpsertWriter::quote).collect(Collectors.joining(", "));
        List<String> updates = names.stream().filter(name -> !target.keyColumns().contains(name))
            .map(name -> quote(name) + " = EXCLUDED." + quote(name)).toList();
        this.upsert = "INSERT INTO " + target.table() + " (" + columns + ") VALUES (" + values + ") ON CONFLICT ("
            + keys + ") " + (updates.isEmpty() ? "DO NOTHING" : "DO UPDATE SET " + String.join(", ", updates));
        this.delete = "DELETE FROM " + target.table() + " WHERE " + target.keyColumns().stream()
            .map(key -> quote(key) + " = " + placeholder(target.columns().get(names.indexOf(key))))
            .collect(Collectors.joining(" AND "));
    }

    /**
     * Checks that the table exists and has every column, so that a sink fails when it is created
     * rather than when its first row arrives.
     *
     * @throws SQLException with a message that says what is wrong
     */
    public static void check(JdbcTarget target) throws SQLException {
        try (Connection connection = DriverManager.getConnection(target.url(), target.user(), target.password())) {
            DatabaseMetaData metadata = connection.getMetaData();
            String[] parts = target.table().split("\\.", 2);
            String schema = parts.length == 2 ? parts[0] : null;
            String table = parts[parts.length - 1];
            List<String> found = new ArrayList<>();
            try (ResultSet columns = metadata.getColumns(null, schema, table, null)) {
                while (columns.next()) {
                    found.add(columns.getString("COLUMN_NAME"));
                }
            }
            if (found.isEmpty()) {
                throw new SQLException("table \"" + target.table() + "\" does not exist at "
                    + target.url().replaceAll("(?i)(password=)[^&;]*", "$1***"));
            }
            for (Column column : target.columns()) {
                if (!found.contains(column.name())) {
                    throw new SQLException("table \"" + target.table() + "\" has no column \"" + column.name()
                        + "\" (it has " + String.join(", ", found) + ")");
                }
            }
        }
    }

    /** Applies the last change of each row in one transaction; a null row deletes it. */
    public void apply(Map<List<Object>, Object[]> changes) throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        Connection db = connection();
        try (PreparedStatement upserts = db.prepareStatement(upsert);
             PreparedStatement deletes = db.prepareStatement(delete)) {
            for (Map.Entry<List<Object>, Object[]> change : changes.entrySet()) {
                if (change.getValue() == null) {
                    for (int i = 0; i < keyPositions.length; i++) {
                        bind(deletes, i + 1, change.getKey().get(i), target.columns().get(keyPositions[i]));
                    }
                    deletes.addBatch();
                } else {
                    for (int i = 0; i < target.columns().size(); i++) {
                        bind(upserts, i + 1, change.getValue()[i], target.columns().get(i));
                    }
                    upserts.addBatch();
                }
            }
            deletes.executeBatch();
            upserts.executeBatch();
            db.commit();
        } catch (SQLException e) {
            rollbackQuietly();
            throw e;
        }
    }

    /** The key of a row, as {@link #apply} takes it. */
    public List<Object> keyOf(Object[] row) {
        List<Object> key = new ArrayList<>(keyPositions.length);
        for (int position : keyPositions) {
            key.add(row[position]);
        }
        return key;
    }

    private Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = DriverManager.getConnection(target.url(), target.user(), target.password());
            connection.setAutoCommit(false);
        }
        return connection;
    }

    private void rollbackQuietly() {
        try {
            if (connection != null) {
                connection.rollback();
            }
        } catch (SQLException ignored) {
            // The connection is broken; the next batch opens a new one.
            connection = null;
        }
    }

    /** A value in the form rows hold it, bound as the column's PostgreSQL type. */
    private static void bind(PreparedStatement statement, int index, Object value, Column column) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.OTHER);
            return;
        }
        switch (column.type()) {
            case DATE -> statement.setObject(index, LocalDate.ofEpochDay(((Number) value).longValue()));
            case TIME -> statement.setObject(index, LocalTime.ofNanoOfDay(((Number) value).longValue() * 1_000_000));
            case TIMESTAMP -> statement.setObject(index,
                LocalDateTime.ofInstant(Instant.ofEpochMilli(((Number) value).longValue()), ZoneOffset.UTC));
            case TIMESTAMPTZ -> statement.setObject(index,
                Instant.ofEpochMilli(((Number) value).longValue()).atOffset(ZoneOffset.UTC));
            case INTERVAL -> statement.setString(index, value + " milliseconds");
            case JSONB -> statement.setString(index, value.toString());
            case BYTEA -> statement.setBytes(index, (byte[]) value);
            default -> statement.setObject(index, value);
        }
    }

    /** A parameter, cast where PostgreSQL does not convert text by itself. */
    private static String placeholder(Column column) {
        return switch (column.type()) {
            case JSONB -> "CAST(? AS jsonb)";
            case INTERVAL -> "CAST(? AS interval)";
            default -> "?";
        };
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
        }
    }
}
