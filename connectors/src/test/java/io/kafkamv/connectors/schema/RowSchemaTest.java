package io.kafkamv.connectors.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class RowSchemaTest {

    @Test
    void typeNamesResolveAsPostgresSpellsThem() {
        assertThat(SqlType.fromName("INT")).contains(SqlType.INTEGER);
        assertThat(SqlType.fromName("int8")).contains(SqlType.BIGINT);
        assertThat(SqlType.fromName("Double   Precision")).contains(SqlType.DOUBLE);
        assertThat(SqlType.fromName("text")).contains(SqlType.VARCHAR);
        assertThat(SqlType.fromName("money")).isEmpty();
    }

    @Test
    void aSchemaWithoutKeyIsAppendOnly() {
        RowSchema schema = RowSchema.of(Column.of("v1", SqlType.INTEGER));

        assertThat(schema.appendOnly()).isTrue();
        assertThat(schema.column("v1")).map(Column::type).contains(SqlType.INTEGER);
    }

    @Test
    void rejectsDuplicateColumnsAndUnknownKeys() {
        List<Column> twice = List.of(Column.of("a", SqlType.INTEGER), Column.of("a", SqlType.BIGINT));
        assertThatThrownBy(() -> new RowSchema(twice, List.of()))
            .hasMessageContaining("\"a\" is defined twice");
        assertThatThrownBy(() -> new RowSchema(List.of(Column.of("a", SqlType.INTEGER)), List.of("b")))
            .hasMessageContaining("\"b\" is not a column");
    }
}
