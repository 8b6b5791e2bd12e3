package io.kafkamv.compiler.differential;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The real PostgreSQL that {@code .ci/run} starts: the reference the views are compared with.
 * Settings come from KAFKA_MV_TEST_POSTGRES_URL, _USER and _PASSWORD.
 */
final class Postgres implements AutoCloseable {

    private final Connection connection;

    Postgres() throws SQLException {
        String url = env("KAFKA_MV_TEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/postgres");
        try {
            connection = DriverManager.getConnection(url, env("KAFKA_MV_TEST_POSTGRES_USER", "postgres"),
                env("KAFKA_MV_TEST_POSTGRES_PASSWORD", "postgres"));
        } catch (SQLException e) {
            throw new SQLException("The differential test needs PostgreSQL at " + url
                + " (.ci/run installs and starts it): " + e.getMessage(), e);
        }
    }

    void resetOrders() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS orders");
            statement.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, customer TEXT, amount INT)");
        }
    }

    void apply(OrdersOp op) throws SQLException {
        if (op.delete()) {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM orders WHERE id = ?")) {
                delete.setLong(1, op.id());
                delete.executeUpdate();
            }
            return;
        }
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO orders VALUES (?, ?, ?) "
            + "ON CONFLICT (id) DO UPDATE SET customer = EXCLUDED.customer, amount = EXCLUDED.amount")) {
            upsert.setLong(1, op.id());
            upsert.setString(2, op.customer());
            upsert.setObject(3, op.amount(), java.sql.Types.INTEGER);
            upsert.executeUpdate();
        }
    }

    /** The query's rows, each value normalized for comparison. */
    List<List<String>> rows(String query) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(normalize(rs.getObject(i)));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** Numbers compare by value to ten decimal places; PostgreSQL's and ours differ in scale, not value. */
    static String normalize(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Number number) {
            BigDecimal decimal = new BigDecimal(number.toString()).setScale(10, java.math.RoundingMode.HALF_EVEN);
            return decimal.stripTrailingZeros().toPlainString();
        }
        return value.toString();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
