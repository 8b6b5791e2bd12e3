package io.kafkamv.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kafkamv.compiler.parser.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

class SqlDialectTest {

    @Test
    void unquotedNamesFoldToLowerCaseAndQuotedNamesKeepTheirCase() throws Exception {
        SqlSelect select = (SqlSelect) SqlParser.create("SELECT V1, \"MixedCase\" FROM T", SqlDialect.parserConfig())
            .parseQuery();

        assertThat(select.getSelectList()).map(node -> ((SqlIdentifier) node).getSimple())
            .containsExactly("v1", "MixedCase");
        assertThat(((SqlIdentifier) select.getFrom()).getSimple()).isEqualTo("t");
    }
}
