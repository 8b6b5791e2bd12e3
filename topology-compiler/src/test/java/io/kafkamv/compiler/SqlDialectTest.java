package io.kafkamv.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

class SqlDialectTest {

    @Test
    void unquotedNamesFoldToLowerCaseAndQuotedNamesKeepTheirCase() throws Exception {
        SqlNode node = SqlParser.create("SELECT V1, \"MixedCase\" FROM T", SqlDialect.parserConfig()).parseQuery();

        SqlSelect select = (SqlSelect) node;
        assertThat(select.getSelectList().toString()).isEqualTo("`v1`, `MixedCase`");
        assertThat(select.getFrom()).hasToString("`t`");
    }
}
