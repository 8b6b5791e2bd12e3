package io.kafkamv.it.query;

import static io.kafkamv.it.support.PostgresAnswers.postgres;
import static io.kafkamv.it.support.PostgresAnswers.rows;
import static io.kafkamv.it.support.PostgresAnswers.sqlState;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.util.PSQLException;

/**
 * Numbers print as PostgreSQL prints them, digit for digit, in a SELECT and in a view: numeric division and AVG
 * choose their scale as PostgreSQL does, an average of integers past 999 does not overflow (in
 * Calcite's 19 digits it did), a sum of bigints is a numeric, and integer arithmetic that overflows
 * fails with PostgreSQL's SQLSTATE instead of wrapping around. A numeric keeps the digits of its values: a
 * {@code numeric(10,2)} column's sum has two decimals, a plain {@code numeric} keeps each value's own, and a
 * cast to {@code numeric} rounds nothing. Both answers are read as text through pgjdbc, from our endpoint and from the real PostgreSQL that
 * {@code .ci/run} starts (KAFKA_MV_TEST_POSTGRES_URL, _USER, _PASSWORD).
 */
class ArithmeticMatchesPostgresIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private static final String ROWS = "(VALUES (12345, 1.5, 7), (12346, 2.25, -3), (12346, NULL, 0), (1, 0.001, 2)) AS t(x, y, z)";

    private static final String BIGINTS = "(VALUES (9223372036854775807::bigint), (9223372036854775807::bigint), "
        + "(9223372036854775806::bigint), (-5::bigint)) AS t(b)";

    private static final List<String> QUERIES = List.of(
        "SELECT 10::numeric / 3, 1.0 / 3, 7 / 2, -7 / 2, 7.5 / 2.5, 2.5::numeric(10,4) / 2",
        "SELECT 12345::numeric / 7, 1::numeric / 12345678, 123456789012345678901234567890::numeric / 3",
        "SELECT 0.000001 / 7, 99999999::numeric / 0.0001",
        "SELECT sum(x) / count(x), sum(y) / 3, count(*) FROM " + ROWS,
        "SELECT z, sum(y) / count(y), max(x) / min(x) FROM " + ROWS + " GROUP BY z",
        "SELECT x / 7.0, y / 3, (x + y) / (z + 0.5) FROM " + ROWS + " WHERE y IS NOT NULL",
        "SELECT avg(x), avg(y), avg(z), avg(x * 1.5), avg(DISTINCT x), avg(x) FILTER (WHERE z > 0) FROM " + ROWS,
        "SELECT z, avg(x), avg(y) FROM " + ROWS + " GROUP BY z",
        "SELECT x FROM " + ROWS + " WHERE x > (SELECT avg(x) FROM " + ROWS + ")",
        "SELECT avg(x) FROM " + ROWS + " WHERE x < 0",
        "SELECT sum(b), avg(b), sum(DISTINCT b), sum(b) FILTER (WHERE b > 0), min(b) FROM " + BIGINTS,
        "SELECT b > 0, sum(b), sum(b) / 2 FROM " + BIGINTS + " GROUP BY b > 0",
        "SELECT b, sum(b) OVER (ORDER BY b), sum(b) OVER (PARTITION BY b > 0) FROM " + BIGINTS,
        "SELECT 9223372036854775806 + 1, -9223372036854775807 - 1, 2147483647 * 2::bigint, abs(-9223372036854775807), abs(-5), abs(0)");

    /** Queries PostgreSQL refuses, with the SQLSTATE it refuses them with. */
    private static final List<String> FAILING = List.of(
        "SELECT 9223372036854775807 + 1",
        "SELECT b * 2 FROM " + BIGINTS,
        "SELECT x + 2147483647 FROM " + ROWS,
        "SELECT -(-9223372036854775807::bigint - 1)",
        "SELECT 1 / (x - x) FROM " + ROWS,
        "SELECT (b / 2)::int FROM " + BIGINTS,
        "SELECT abs(-b - 1) FROM " + BIGINTS + " WHERE b = 9223372036854775807",
        "SELECT sqrt(-1)", "SELECT ln(0)", "SELECT log10(y - 3) FROM " + ROWS, "SELECT power(0, -1)",
        "SELECT power(-8, 0.5)", "SELECT exp(1000)", "SELECT exp(x) FROM " + ROWS);

    @Test
    void numericDivisionAndAveragesPrintThePostgresDigits() throws Exception {
        try (Connection ours = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Connection postgres = postgres()) {
            for (String query : QUERIES) {
                assertThat(rows(ours, query)).as(query).containsExactlyInAnyOrderElementsOf(rows(postgres, query));
            }
        }
    }

    @Test
    void integerOverflowIsAnErrorWithPostgresCode() throws Exception {
        try (Connection ours = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Connection postgres = postgres()) {
            for (String query : FAILING) {
                String expected = sqlState(postgres, query);
                assertThat(expected).as("PostgreSQL refuses " + query).isNotNull();
                assertThat(sqlState(ours, query)).as(query).isEqualTo(expected);
            }
        }
    }

    /** The table both servers hold, and the rows written to it, one INSERT at a time and several in one. */
    private static final String PRICES = "CREATE TABLE prices (id INT PRIMARY KEY, d DECIMAL(10,2), n NUMERIC, "
        + "f DOUBLE PRECISION, b BIGINT)";
    private static final List<String> PRICE_ROWS = List.of(
        "INSERT INTO prices VALUES (1, 1.25, 1.5, 1.1, 10), (2, 2.5, 2.125, 2.2, 20)",
        "INSERT INTO prices VALUES (3, 1000, 3, 3.3, 30)",
        "INSERT INTO prices VALUES (4, 1.005, 0.1, 4.4, 40)",
        "INSERT INTO prices VALUES (5, -7.499, -0.50, NULL, NULL)");

    /** Over the table: as a SELECT, and as a view whose rows are then read. */
    private static final List<String> PRICE_QUERIES = List.of(
        "SELECT id, d, n, f FROM prices",
        "SELECT sum(d) AS sd, max(d) AS md, min(n) AS mn, sum(n) AS sn, avg(d) AS ad, avg(n) AS an, sum(b) AS sb FROM prices",
        "SELECT round(sum(f)::numeric, 2) AS r, sum(f)::numeric AS s FROM prices",
        "SELECT id, d * 2 AS d2, d + n AS dn, d / 3 AS d3, -d AS neg, abs(n - 3) AS a, f::numeric AS fn FROM prices",
        "SELECT id, CASE WHEN id > 1 THEN d ELSE n END AS c, 1.50::numeric AS lit, n::numeric(10,1) AS n1 FROM prices",
        "SELECT d > 1, count(*) AS c, sum(n) AS s FROM prices GROUP BY d > 1");

    @Test
    void numericsKeepTheirScaleInQueriesAndViews() throws Exception {
        try (Connection ours = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Connection postgres = postgres();
             Statement oursStatement = ours.createStatement();
             Statement postgresStatement = postgres.createStatement()) {
            postgresStatement.execute("DROP TABLE IF EXISTS prices");
            postgresStatement.execute(PRICES);
            oursStatement.execute(PRICES);
            for (String insert : PRICE_ROWS) {
                postgresStatement.execute(insert);
                oursStatement.execute(insert);
            }
            for (int i = 0; i < PRICE_QUERIES.size(); i++) {
                String query = PRICE_QUERIES.get(i);
                List<List<String>> expected = rows(postgres, query);
                assertThat(rows(ours, query)).as(query).containsExactlyInAnyOrderElementsOf(expected);
                oursStatement.execute("CREATE MATERIALIZED VIEW prices_" + i + " AS " + query);
                assertThat(rows(ours, "SELECT * FROM prices_" + i)).as("view of " + query)
                    .containsExactlyInAnyOrderElementsOf(expected);
            }
        }
    }

    /** Unnamed casts are named as PostgreSQL names them: after what they cast, or after the type. */
    @Test
    void castsAreNamedAsPostgresNamesThem() throws Exception {
        String query = "SELECT 1.50::numeric, 6.6::float8::numeric, 2::int, 'a'::text, 2.5::float8, "
            + "CAST(2.25 AS decimal), 1.555::numeric(10,2), CASE WHEN true THEN 1 END, count(*)::numeric";
        try (Connection ours = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Connection postgres = postgres()) {
            assertThat(labels(ours, query)).isEqualTo(labels(postgres, query));
            assertThat(rows(ours, query)).isEqualTo(rows(postgres, query));
        }
    }

    /** Calls are named after their function as PostgreSQL names it, also where Calcite knows it otherwise. */
    @Test
    void functionCallsAreNamedAsPostgresNamesThem() throws Exception {
        List<String> queries = List.of(
            "SELECT md5('a'), trunc(2.567, 2), translate('ab', 'a', 'c'), left('ab', 1), greatest(1, 2), EXISTS (SELECT 1)",
            "SELECT count(*) FILTER (WHERE true), string_agg('a', ',' ORDER BY 1)",
            "SELECT row_number() OVER (), sum(1) OVER ()",
            "WITH x AS (SELECT 1 AS a) SELECT count(*), max(a) FROM x",
            "SELECT '{\"a\": 1}'::jsonb -> 'a', '{\"a\": 1}'::jsonb ->> 'a'",
            "SELECT extract(second FROM timestamp '2026-01-01 00:00:01.5'), date_part('dow', date '2026-01-01')",
            "SELECT interval '1 day 02:00:00', interval '-90 minutes' AS back, timestamp '2026-01-01' + interval '1 month'",
            "SELECT generate_series(1, 2), 1 AS end, (SELECT max(x) FROM generate_series(1, 3) AS s(x))",
            "SELECT * FROM generate_series(1, 2) a, generate_series(1, 2) AS b ORDER BY a, b");
        try (Connection ours = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Connection postgres = postgres()) {
            for (String query : queries) {
                assertThat(labels(ours, query)).as(query).isEqualTo(labels(postgres, query));
                assertThat(rows(ours, query)).as(query).isEqualTo(rows(postgres, query));
            }
        }
    }

    @Test
    void aValueTooLargeForItsColumnIsANumericFieldOverflow() throws Exception {
        try (Connection ours = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Statement statement = ours.createStatement()) {
            statement.execute("CREATE TABLE narrow (id INT PRIMARY KEY, d NUMERIC(4,2))");
            assertThatThrownBy(() -> statement.execute("INSERT INTO narrow VALUES (1, 123.4)"))
                .isInstanceOfSatisfying(PSQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo("22003");
                    assertThat(e.getServerErrorMessage().getMessage()).isEqualTo("numeric field overflow");
                    assertThat(e.getServerErrorMessage().getDetail())
                        .isEqualTo("A field with precision 4, scale 2 must round to an absolute value less than 10^2.");
                });
            assertThat(rows(ours, "SELECT count(*) FROM narrow")).containsExactly(List.of("0"));
        }
    }

    private static List<String> labels(Connection connection, String query) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            List<String> labels = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                labels.add(rs.getMetaData().getColumnLabel(i));
            }
            return labels;
        }
    }
}
