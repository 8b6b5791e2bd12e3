package io.kafkamv.compiler.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.SqlStatementParser;
import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.api.Test;

class SetReturningFunctionsTest {

    @Test
    void aSetReturningFunctionInTheSelectListBecomesALateralFunctionInFrom() {
        assertThat(rewritten("SELECT id, generate_series(1, n) * 2 AS g FROM t"))
            .isEqualTo("SELECT `id`, `kmv$series`.`generate_series` * 2 AS `g` FROM `t`, "
                + "LATERAL TABLE(`generate_series`(1, `n`)) AS `kmv$series`");
        assertThat(rewritten("SELECT generate_series(1, 3)"))
            .isEqualTo("SELECT `kmv$series`.`generate_series` FROM LATERAL TABLE(`generate_series`(1, 3)) AS `kmv$series`");
    }

    @Test
    void functionsInFromSeeTheRelationsBeforeThemAndTheirAliasNamesTheirColumn() {
        assertThat(rewritten("SELECT * FROM generate_series(1, 3) AS a, t, generate_series(1, t.n) b"))
            .isEqualTo("SELECT * FROM TABLE(`generate_series`(1, 3)) AS `a` (`a`), `t`, "
                + "LATERAL TABLE(`generate_series`(1, `t`.`n`)) AS `b` (`b`)");
        assertThat(rewritten("SELECT x FROM generate_series(1, 3) AS s(x)"))
            .isEqualTo("SELECT `x` FROM TABLE(`generate_series`(1, 3)) AS `s` (`x`)");
    }

    @Test
    void subqueriesAreRewrittenOnTheirOwn() {
        assertThat(rewritten("SELECT (SELECT max(g) FROM (SELECT generate_series(1, t.n) AS g) AS q) FROM t"))
            .contains("FROM LATERAL TABLE(`generate_series`(1, `t`.`n`)) AS `kmv$series`")
            .startsWith("SELECT (SELECT MAX(`g`)");
    }

    @Test
    void whatPostgresAnswersOtherwiseIsRefusedWithAHint() {
        assertThatThrownBy(() -> rewritten("SELECT generate_series(1, 2), generate_series(1, 3)"))
            .isInstanceOfSatisfying(CompileException.class, e -> {
                assertThat(e.category()).isEqualTo(CompileException.Category.UNSUPPORTED);
                assertThat(e.position()).isEqualTo(31);
                assertThat(e.hint()).isPresent();
            });
        for (String sql : new String[] {"SELECT count(*), generate_series(1, 2) FROM t",
            "SELECT k, generate_series(1, 2) FROM t GROUP BY k", "SELECT string_agg(a, ','), generate_series(1, 2) FROM t",
            "SELECT row_number() OVER (), generate_series(1, 2) FROM t"}) {
            assertThatThrownBy(() -> rewritten(sql)).as(sql).isInstanceOfSatisfying(CompileException.class,
                e -> assertThat(e.getMessage()).contains("with aggregates"));
        }
    }

    private static String rewritten(String sql) {
        SqlNode query = SqlStatementParser.parse(sql);
        SetReturningFunctions.rewrite(query, sql);
        return query.toString().replaceAll("\\s+", " ");
    }
}
