package io.kafkamv.it.query;

import static io.kafkamv.it.support.PostgresAnswers.postgres;
import static io.kafkamv.it.support.PostgresAnswers.rows;
import static io.kafkamv.it.support.PostgresAnswers.sqlState;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;

import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A SELECT's numbers print as PostgreSQL prints them, digit for digit: numeric division and AVG
 * choose their scale as PostgreSQL does, an average of integers past 999 does not overflow (in
 * Calcite's 19 digits it did), a sum of bigints is a numeric, and integer arithmetic that overflows
 * fails with PostgreSQL's SQLSTATE instead of wrapping around. Both answers are read as text through pgjdbc, from our endpoint and from the real PostgreSQL that
 * {@code .ci/run} starts (KAFKA_MV_TEST_POSTGRES_URL, _USER, _PASSWORD).
 */
class BatchArithmeticMatchesPostgresIT {

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
        "SELECT abs(-b - 1) FROM " + BIGINTS + " WHERE b = 9223372036854775807");

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
}
