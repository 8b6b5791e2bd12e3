package io.kafkamv.it.query;

import static io.kafkamv.it.support.PostgresAnswers.postgres;
import static io.kafkamv.it.support.PostgresAnswers.rows;
import static io.kafkamv.it.support.PostgresAnswers.sqlState;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Text read as a value as PostgreSQL reads it: {@code ' 42 '::int}, {@code 'yes'::boolean}, a numeric rounded
 * half away from zero to its scale, and PostgreSQL's errors for text it refuses. Dates and timestamps written
 * as clients write them (ISO 8601 with {@code T}, {@code Z} or an offset, as
 * psycopg2 sends a Python {@code datetime}; a zone name; a fraction of a second) are read as PostgreSQL
 * reads them, in casts and in the values of an INSERT, and print as PostgreSQL prints them; text that is
 * no date fails with PostgreSQL's SQLSTATE. Both answers are read as text through pgjdbc, ours and the
 * real PostgreSQL's, each session at UTC.
 */
class TextInputMatchesPostgresIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private static final List<String> INPUTS = List.of("2026-01-01T00:01:00", "2026-01-01T00:01:00.5",
        "2026-01-01 00:01:00.125+02", "2026-01-01T00:01:00+02:00", "2026-01-01T00:01:00Z", "2026-01-01 00:01:00",
        "2026-06-01 12:00:00 Europe/Paris", "2026-01-01T23:30:00-05:30", "2026-03-04");

    private static final List<String> REFUSED = List.of("garbage", "2026-13-01", "2026-02-30 10:00", "2026-01-01 25:00:00",
        "2026-01-01T00:01:00 Nowhere/City");

    private static final List<String> CASTS = List.of(
        "SELECT ' 42 '::int, '+7'::bigint, '-32768'::smallint, CAST('12' AS smallint) + 1",
        "SELECT 'yes'::boolean, 'tr'::boolean, 'off'::boolean, ' 0 '::boolean, 'N'::boolean",
        "SELECT '1e3'::numeric(10,1), '1.555'::numeric(10,2), '-1.555'::numeric(10,2), ' 2.50 '::numeric(5,2)",
        "SELECT 2.5::int, (-2.5)::int, 7.5::int, 1.4999::int, round(2.5), round(1.555, 2)",
        "SELECT x::numeric(10,2), x::int FROM (VALUES (1.555), (-1.555), (2.5)) t(x)",
        "SELECT '10:00'::time, '23:59:59'::time, '{\"a\": [1, 2]}'::jsonb");

    private static final List<String> CASTS_REFUSED = List.of("'abc'::int", "'1.5'::int", "''::int", "'0x1F'::int",
        "'99999999999'::int", "'40000'::smallint", "'x'::boolean", "'o'::boolean", "'abc'::numeric", "'1.2.3'::numeric",
        "'{bad'::jsonb", "'10:00:99'::time", "'noon'::time");

    @Test
    void castsOfTextGiveWhatPostgresGives() throws Exception {
        try (Connection ours = ours(); Connection postgres = postgres()) {
            for (String query : CASTS) {
                assertThat(rows(ours, query)).as(query).isEqualTo(rows(postgres, query));
            }
            for (String cast : CASTS_REFUSED) {
                String query = "SELECT " + cast;
                String expected = sqlState(postgres, query);
                assertThat(expected).as("PostgreSQL refuses " + query).isNotNull();
                assertThat(sqlState(ours, query)).as(query).isEqualTo(expected);
            }
        }
    }

    @Test
    void castsOfTextToDatesAndTimestampsGiveWhatPostgresGives() throws Exception {
        try (Connection ours = ours(); Connection postgres = postgres()) {
            for (String input : INPUTS) {
                String query = "SELECT '" + input + "'::timestamp, CAST('" + input + "' AS timestamptz), '" + input
                    + "'::date";
                assertThat(rows(ours, query)).as(query).isEqualTo(rows(postgres, query));
            }
        }
    }

    @Test
    void textThatIsNoDateIsRefusedWithPostgresCode() throws Exception {
        try (Connection ours = ours(); Connection postgres = postgres()) {
            for (String input : REFUSED) {
                for (String type : List.of("timestamp", "timestamptz", "date")) {
                    String query = "SELECT '" + input + "'::" + type;
                    String expected = sqlState(postgres, query);
                    assertThat(expected).as("PostgreSQL refuses " + query).isNotNull();
                    assertThat(sqlState(ours, query)).as(query).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void anInsertTakesTheSameTextAndAViewShowsWhatPostgresShows() throws Exception {
        try (Connection ours = ours(); Connection postgres = postgres(); Statement statement = ours.createStatement()) {
            statement.execute("CREATE TABLE events (id int PRIMARY KEY, happened timestamptz, local_time timestamp, on_day date)");
            for (int i = 0; i < INPUTS.size(); i++) {
                String input = INPUTS.get(i);
                statement.execute("INSERT INTO events VALUES (" + i + ", '" + input + "', '" + input + "', '" + input + "')");
            }
            statement.execute("CREATE MATERIALIZED VIEW events_by_id AS SELECT id, happened, local_time, on_day FROM events");
            for (int i = 0; i < INPUTS.size(); i++) {
                String input = INPUTS.get(i);
                List<List<String>> expected = rows(postgres,
                    "SELECT " + i + ", '" + input + "'::timestamptz, '" + input + "'::timestamp, '" + input + "'::date");
                assertThat(rows(ours, "SELECT * FROM events WHERE id = " + i)).as("table, " + input).isEqualTo(expected);
                assertThat(rows(ours, "SELECT * FROM events_by_id WHERE id = " + i)).as("view, " + input).isEqualTo(expected);
            }
            String refused = sqlState(ours, "INSERT INTO events VALUES (100, 'garbage', NULL, NULL)");
            assertThat(refused).isEqualTo(sqlState(postgres, "SELECT 'garbage'::timestamptz"));
        }
    }

    private static final String VALUES_TABLE = "(id int PRIMARY KEY, i int, s smallint, b bigint, n numeric, "
        + "r double precision, t text, f boolean)";

    private static final List<String> INSERTS = List.of(
        "INSERT INTO vals VALUES (1, 2.5, -2.5, 7.5, 1.50, 1e2, 'a', true)",
        "INSERT INTO vals VALUES (2, 2.5e0, 3.5e0, 1.4999, 2, 0.1, 12, 'yes')",
        "INSERT INTO vals (id, i, b) VALUES (3, ' 42 ', '-7')",
        "INSERT INTO vals VALUES (4, 5)",
        "INSERT INTO vals (id, n) VALUES (5, 1), (6, 2.5)",
        "INSERT INTO vals (id, i, s) VALUES (7, 5 / 2.0, -(5 / 2.0))",
        "INSERT INTO vals (id, i, s, n, t) VALUES (9, 2.5::float8, 3.5::float8, 1.5e1, 1e2)",
        "INSERT INTO vals (id, i) SELECT 8, 2.5");

    private static final List<String> INSERTS_REFUSED = List.of(
        "INSERT INTO vals (id, i) VALUES (20, '2.5')",
        "INSERT INTO vals (id, i) VALUES (21, 2147483647.5)",
        "INSERT INTO vals (id, s) VALUES (22, 32767.5e0)",
        "INSERT INTO vals (id, f) VALUES (23, 1)",
        "INSERT INTO vals (id, i) VALUES (24, true)",
        "INSERT INTO vals (id, i) VALUES (25, 1, 2)",
        "INSERT INTO vals (id, i, s) VALUES (26, 1)",
        "INSERT INTO vals VALUES (27, 1, 2, 3, 4, 5, 'x', true, 9)",
        "INSERT INTO vals (id, f) VALUES (28, true), (29, 1)",
        "INSERT INTO vals (id, n) VALUES (30, 1e300000000)",
        "INSERT INTO vals (id, i) VALUES (31, 1e-300000000)",
        "INSERT INTO vals (id, i) VALUES (32, 1), (33)");

    /**
     * What an INSERT stores is what PostgreSQL stores, read back as text: a numeric assigned to an integer rounds half
     * away from zero, a float half to even, text is read as the integer's input; a row may leave out the last columns;
     * what PostgreSQL refuses is refused with its SQLSTATE, and none of its rows are stored (the table is compared last).
     */
    @Test
    void anInsertStoresWhatPostgresStores() throws Exception {
        try (Connection ours = ours(); Connection postgres = postgres();
             Statement ourStatement = ours.createStatement(); Statement theirs = postgres.createStatement()) {
            ourStatement.execute("CREATE TABLE vals " + VALUES_TABLE);
            theirs.execute("CREATE TEMPORARY TABLE vals " + VALUES_TABLE);
            for (String insert : INSERTS) {
                theirs.execute(insert);
                ourStatement.execute(insert);
            }
            for (String insert : INSERTS_REFUSED) {
                String expected = sqlState(postgres, insert);
                assertThat(expected).as("PostgreSQL refuses " + insert).isNotNull();
                assertThat(sqlState(ours, insert)).as(insert).isEqualTo(expected);
            }
            for (Connection connection : List.of(ours, postgres)) {
                // pgjdbc sends a double as a float8 parameter: rounded half to even into an integer, 15 digits into a numeric.
                try (java.sql.PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO vals (id, i, s, n, r, t) VALUES (?, ?, ?, ?, ?, ?)")) {
                    insert.setInt(1, 40);
                    insert.setDouble(2, 2.5);
                    insert.setDouble(3, -0.5);
                    insert.setDouble(4, 1.0E-5);
                    insert.setDouble(5, 0.1);
                    insert.setDouble(6, 1.1 + 2.2);
                    insert.executeUpdate();
                }
            }
            String ragged = "INSERT INTO vals (id, i) VALUES (34, 1 + 1), (35)";
            assertThat(message(ours, ragged)).isEqualTo(message(postgres, ragged))
                .isEqualTo("ERROR: VALUES lists must all be the same length");
            String nullKey = "INSERT INTO vals (id, i) VALUES (NULL, 1)";
            assertThat(message(ours, nullKey)).isEqualTo(message(postgres, nullKey))
                .isEqualTo("ERROR: null value in column \"id\" of relation \"vals\" violates not-null constraint");
            String all = "SELECT * FROM vals ORDER BY id";
            assertThat(rows(ours, all)).isEqualTo(rows(postgres, all));
        }
    }

    /** The first line of the error the statement gets, as pgjdbc words it. */
    private static String message(Connection connection, String sql) {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
            return null;
        } catch (SQLException e) {
            return e.getMessage().lines().findFirst().orElseThrow();
        }
    }

    private static Connection ours() throws SQLException {
        return DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
    }
}
