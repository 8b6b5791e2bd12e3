package io.kafkamv.service.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Function;

import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;
import org.junit.jupiter.api.Test;

class CursorsTest {

    /** The rows 1 to 5 for any query, as the query engine would return them. */
    private static final Function<String, StatementResult> FIVE_ROWS = sql -> new StatementResult.Rows(
        List.of(new ResultColumn("n", SqlType.INTEGER)), List.of(List.of(1), List.of(2), List.of(3), List.of(4), List.of(5)));

    private final Cursors cursors = new Cursors();

    @Test
    void fetchesForwardInSteps() {
        cursors.beginTransaction();
        assertThat(run("DECLARE \"By Id\" NO SCROLL CURSOR WITHOUT HOLD FOR SELECT n FROM t").commandTag())
            .isEqualTo("DECLARE CURSOR");
        assertThat(rows(run("FETCH FORWARD 2 FROM \"By Id\""))).containsExactly(List.of(1), List.of(2));
        assertThat(run("MOVE 1 IN \"By Id\"").commandTag()).isEqualTo("MOVE 1");
        assertThat(rows(run("fetch next \"By Id\""))).containsExactly(List.of(4));
        StatementResult rest = run("FETCH ALL FROM \"By Id\"");
        assertThat(rows(rest)).containsExactly(List.of(5));
        assertThat(rest.commandTag()).isEqualTo("FETCH 1");
        assertThat(run("FETCH ALL FROM \"By Id\"").commandTag()).isEqualTo("FETCH 0");
        assertThat(run("CLOSE \"By Id\"").commandTag()).isEqualTo("CLOSE CURSOR");
    }

    @Test
    void aCursorWithoutHoldNeedsATransactionAndEndsWithIt() {
        assertThatThrownBy(() -> run("DECLARE c CURSOR FOR SELECT 1"))
            .isInstanceOfSatisfying(SqlError.class, e -> assertThat(e.state().code()).isEqualTo("25P01"));
        cursors.beginTransaction();
        run("DECLARE c CURSOR FOR SELECT 1");
        run("DECLARE h CURSOR WITH HOLD FOR SELECT 1");
        cursors.endTransaction();
        assertThatThrownBy(() -> run("FETCH c"))
            .isInstanceOfSatisfying(SqlError.class, e -> assertThat(e.getMessage()).isEqualTo("cursor \"c\" does not exist"));
        assertThat(rows(run("FETCH h"))).containsExactly(List.of(1));
    }

    @Test
    void refusesWhatItCannotDo() {
        cursors.beginTransaction();
        run("DECLARE c CURSOR FOR SELECT 1");
        assertThatThrownBy(() -> run("DECLARE c CURSOR FOR SELECT 1"))
            .isInstanceOfSatisfying(SqlError.class, e -> assertThat(e.state().code()).isEqualTo("42P03"));
        assertThatThrownBy(() -> run("FETCH PRIOR FROM c"))
            .isInstanceOfSatisfying(SqlError.class, e -> assertThat(e.getMessage()).isEqualTo("cursor can only scan forward"));
        assertThatThrownBy(() -> run("DECLARE s SCROLL CURSOR FOR SELECT 1"))
            .isInstanceOfSatisfying(SqlError.class, e -> assertThat(e.state().code()).isEqualTo("0A000"));
        assertThat(run("CLOSE ALL").commandTag()).isEqualTo("CLOSE CURSOR ALL");
    }

    private StatementResult run(String sql) {
        return cursors.run(sql, FIVE_ROWS);
    }

    private static List<List<Object>> rows(StatementResult result) {
        return ((StatementResult.Rows) result).rows();
    }
}
