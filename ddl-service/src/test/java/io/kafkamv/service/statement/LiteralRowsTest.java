package io.kafkamv.service.statement;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.kafkamv.compiler.parser.SqlStatementParser;
import org.apache.calcite.sql.SqlInsert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LiteralRowsTest {

    @Test
    void constantsAreTheValuesCalcitesDriverGivesForThemAndNumbersWithAnExponentAreNumerics() {
        List<List<Object>> rows = rows("INSERT INTO t VALUES (1, -7, 5000000000, 1.50, -2.5, 1e3, 'it''s', TRUE, NULL), "
            + "(2, 0, -9223372036854775808, 0.1, 3, 2E-1, '', FALSE, 'x')");

        assertThat(rows).containsExactly(
            Arrays.asList(1, -7, 5_000_000_000L, new BigDecimal("1.50"), new BigDecimal("-2.5"), new BigDecimal("1000"),
                "it's", true, null),
            Arrays.asList(2, 0, Long.MIN_VALUE, new BigDecimal("0.1"), 3, new BigDecimal("0.2"), "", false, "x"));
        assertThat(rows.get(0).get(0)).isInstanceOf(Integer.class);
        assertThat(rows.get(0).get(3)).isEqualTo(new BigDecimal("1.50")).hasToString("1.50");
    }

    @Test
    void aNumberCastToAFloatIsOneAsAFloatParameterArrives() {
        assertThat(rows("INSERT INTO t VALUES (CAST(2.5 AS DOUBLE), CAST(-1.0E-5 AS DOUBLE), CAST(0.1 AS REAL))"))
            .containsExactly(Arrays.asList(2.5, -1.0E-5, 0.1f));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "INSERT INTO t VALUES (1 + 1)",
        "INSERT INTO t VALUES (upper('a'))",
        "INSERT INTO t VALUES (DATE '2026-12-04')",
        "INSERT INTO t VALUES (INTERVAL '1' DAY)",
        "INSERT INTO t VALUES (X'ff')",
        "INSERT INTO t VALUES (CAST(1 AS SMALLINT))",
        "INSERT INTO t VALUES (CAST('NaN' AS DOUBLE))",
        "INSERT INTO t VALUES (UNKNOWN)",
        "INSERT INTO t VALUES (99999999999999999999)",
        "INSERT INTO t VALUES (1, 2), (3)",
        "INSERT INTO t SELECT 1",
        "INSERT INTO t SELECT g FROM generate_series(1, 3) g"})
    void anythingElseIsLeftToTheQuery(String insert) {
        assertThat(LiteralRows.of(source(insert))).isEmpty();
    }

    @Test
    void anExponentBeyondPostgresBoundIsRefusedAsPostgresRefusesIt() {
        io.kafkamv.service.error.SqlError error = org.assertj.core.api.Assertions.catchThrowableOfType(
            io.kafkamv.service.error.SqlError.class, () -> LiteralRows.of(source("INSERT INTO t VALUES (1e300000000)")));
        assertThat(error.state().code()).isEqualTo("22003");
        assertThat(rows("INSERT INTO t VALUES (1e1000)").get(0).get(0)).isEqualTo(BigDecimal.TEN.pow(1000));
    }

    private static List<List<Object>> rows(String insert) {
        Optional<List<Object[]>> rows = LiteralRows.of(source(insert));
        assertThat(rows).isPresent();
        return rows.get().stream().map(Arrays::asList).toList();
    }

    private static org.apache.calcite.sql.SqlNode source(String insert) {
        return ((SqlInsert) SqlStatementParser.parse(insert)).getSource();
    }
}
