package io.kafkamv.service.statement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class SqlScriptTest {

    @Test
    void splitsAtSemicolonsAndKeepsEachStatementsOffset() {
        String script = "SELECT 1;  SELECT 2 ;\nSELECT 3";

        assertThat(SqlScript.split(script)).containsExactly(
            new SqlScript.Statement("SELECT 1", 0),
            new SqlScript.Statement("SELECT 2", 11),
            new SqlScript.Statement("SELECT 3", 22));
    }

    @Test
    void semicolonsInsideQuotesAndCommentsDoNotSplit() {
        String script = "SELECT 'a;b', \"c;d\" -- e;f\n FROM t /* g; h */; SELECT $$i;j$$, $tag$k;$tag$";

        List<SqlScript.Statement> statements = SqlScript.split(script);

        assertThat(statements).extracting(SqlScript.Statement::text).containsExactly(
            "SELECT 'a;b', \"c;d\" -- e;f\n FROM t /* g; h */",
            "SELECT $$i;j$$, $tag$k;$tag$");
    }

    @Test
    void escapedQuotesStayInsideTheString() {
        assertThat(SqlScript.split("SELECT 'it''s; fine'; SELECT 2"))
            .extracting(SqlScript.Statement::text)
            .containsExactly("SELECT 'it''s; fine'", "SELECT 2");
    }

    @Test
    void emptyStatementsAndCommentOnlyTextAreDropped() {
        assertThat(SqlScript.split(" ; ;-- nothing\n")).isEmpty();
        assertThat(SqlScript.split("")).isEmpty();
    }

    @Test
    void positionalParametersAreNotDollarQuotes() {
        assertThat(SqlScript.split("SELECT $1; SELECT $2"))
            .extracting(SqlScript.Statement::text)
            .containsExactly("SELECT $1", "SELECT $2");
    }
}
