package io.kafkamv.it.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The seed session and everyday JDBC use through the PostgreSQL JDBC driver (extended query protocol). */
class PgJdbcBackgroundDdlIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
    }

    @Test
    void seedSessionThroughPgJdbc() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t(v1 int)");
            assertThat(statement.executeUpdate("INSERT INTO t SELECT * FROM generate_series(1, 1000000)"))
                .isEqualTo(1_000_000);
            statement.execute("FLUSH");
            statement.execute("SET BACKGROUND_DDL=true");
            statement.execute("CREATE MATERIALIZED VIEW m AS SELECT * FROM t");

            List<String> jobs = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery("SHOW JOBS")) {
                assertThat(rs.getMetaData().getColumnName(1)).isEqualTo("Id");
                while (rs.next()) {
                    jobs.add(rs.getLong("Id") + "|" + rs.getString("Statement") + "|" + rs.getString("Progress"));
                }
            }
            assertThat(jobs).singleElement().asString()
                .contains("|CREATE MATERIALIZED VIEW m AS SELECT * FROM t|").matches(".*\\|\\d+\\.\\d\\d%( \\(starting\\))?");

            statement.execute("WAIT");
            try (ResultSet rs = statement.executeQuery("SELECT count(*), sum(v1) FROM m")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(1_000_000L);
                assertThat(rs.getLong(2)).isEqualTo(500_000_500_000L);
            }
        }
    }

    @Test
    void preparedStatementsBatchesAndServerSidePreparation() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR, score DOUBLE)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO people VALUES (?, ?, ?)")) {
                for (int i = 1; i <= 20; i++) {
                    insert.setInt(1, i);
                    insert.setString(2, "it's person " + i);
                    insert.setDouble(3, i * 1.5);
                    insert.addBatch();
                }
                assertThat(insert.executeBatch()).hasSize(20).containsOnly(1);
            }
            statement.execute("FLUSH");
            // More runs than pgjdbc's prepareThreshold (5): it switches to a named statement and binary results.
            try (PreparedStatement select = connection.prepareStatement(
                "SELECT id, name, score FROM people WHERE id = ?")) {
                for (int i = 1; i <= 8; i++) {
                    select.setInt(1, i);
                    try (ResultSet rs = select.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt("id")).isEqualTo(i);
                        assertThat(rs.getString("name")).isEqualTo("it's person " + i);
                        assertThat(rs.getDouble("score")).isEqualTo(i * 1.5);
                        assertThat(rs.next()).isFalse();
                    }
                }
            }
        }
    }

    @Test
    void errorsCarrySqlStateAndLeaveTheConnectionUsable() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM nowhere"))
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("42P01");
                    assertThat(e.getMessage()).contains("relation \"nowhere\" does not exist").contains("Position: 15");
                });
            try (ResultSet rs = statement.executeQuery("SELECT 40 + 2")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
        }
    }
}
