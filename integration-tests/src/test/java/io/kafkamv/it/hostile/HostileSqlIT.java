package io.kafkamv.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SQL that is hostile by size or shape gets a clear error with a SQLSTATE, never a dead session, and
 * names with quotes and non-ASCII letters just work.
 */
class HostileSqlIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void statementsThatCannotRunGetAClearErrorAndTheSessionGoesOn() throws Exception {
        String nested = "SELECT " + "(".repeat(5_000) + "1" + ")".repeat(5_000);
        String bigIn = "SELECT 1 IN (" + IntStream.range(0, 20_000).mapToObj(Integer::toString)
            .collect(Collectors.joining(", ")) + ")";
        try (Connection connection = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "")) {
            for (String sql : new String[] {nested, "SELECT no_such_function(1)", "SELECT 'a' + 1", "SELECT 1/0",
                "SELECT * FROM \"no\"\"such\"", "CREATE MATERIALIZED VIEW v AS SELECT", "SELECT 1 FROM",
                "\u0000\u0001", "SELECT '" + "\uD83D\uDE00".repeat(1_000)}) {
                SQLException error = catchThrowableOfType(SQLException.class, () -> execute(connection, sql));
                assertThat((Throwable) error).as(abbreviate(sql)).isNotNull();
                assertThat(error.getSQLState()).as(abbreviate(sql)).isNotBlank().isNotEqualTo("XX000");
                assertThat(error.getMessage()).as(abbreviate(sql)).isNotBlank().doesNotContain("Exception");
                assertThat(answer(connection, "SELECT 40 + 2")).isEqualTo("42");
            }
            // Either it runs, or it says plainly that it is too large; it must not fail obscurely.
            try {
                assertThat(answer(connection, bigIn)).isIn("true", "t");
            } catch (SQLException tooLarge) {
                assertThat(tooLarge.getSQLState()).isEqualTo("0A000");
                assertThat(tooLarge.getMessage()).contains("too large");
            }
            assertThat(answer(connection, "SELECT 40 + 2")).isEqualTo("42");
        }
    }

    /** The job store holds the catalog and its secrets: no SQL user may read it, nor write any internal topic. */
    @Test
    void internalTopicsCannotBeReadOrWrittenThroughSourcesAndSinks() throws Exception {
        try (Connection connection = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE internal_probe (id INT PRIMARY KEY, v INT)");
            for (String sql : new String[] {
                "CREATE SOURCE catalog_copy (line TEXT) WITH (connector = 'kafka', topic = '_kafka_mv_jobs', format = 'string')",
                "CREATE SOURCE offsets_copy (line TEXT) WITH (connector = 'kafka', topic = '__consumer_offsets', format = 'string')",
                "CREATE SINK overwrite AS SELECT * FROM internal_probe WITH (connector = 'kafka', topic = '_kafka_mv_jobs')",
                "CREATE SINK overwrite AS SELECT * FROM internal_probe WITH (connector = 'kafka', topic = 'kmv-table-internal_probe-1')"}) {
                SQLException error = catchThrowableOfType(SQLException.class, () -> statement.execute(sql));
                assertThat((Throwable) error).as(sql).isNotNull();
                assertThat(error.getSQLState()).as(sql).isEqualTo("42501");
                assertThat(error.getMessage()).as(sql).contains("belongs to kafka-mv or to Kafka itself");
            }
            SQLException retention = catchThrowableOfType(SQLException.class, () ->
                statement.execute("CREATE TABLE short_lived (id INT PRIMARY KEY) WITH ('retention.ms' = '1000')"));
            assertThat(retention.getSQLState()).as("a table's topic keeps its rows: no retention").isEqualTo("22023");
            assertThat(retention.getMessage()).contains("unrecognized parameter \"retention.ms\"");
            statement.execute("DROP TABLE internal_probe");
        }
    }

    @Test
    void quotedAndUnicodeNamesWork() throws Exception {
        try (Connection connection = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE \"tä\"\"ble\" (\"çolumn\" int, \"Ünïcode 名\" varchar)");
            statement.execute("INSERT INTO \"tä\"\"ble\" VALUES (7, 'ok'), (8, '名前')");
            statement.execute("FLUSH");
            assertThat(answer(connection, "SELECT sum(\"çolumn\") || ':' || max(\"Ünïcode 名\") FROM \"tä\"\"ble\""))
                .isEqualTo("15:名前");
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static String answer(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getString(1);
        }
    }

    private static String abbreviate(String sql) {
        return sql.length() <= 60 ? sql : sql.substring(0, 60) + "...";
    }
}
