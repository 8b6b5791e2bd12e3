package io.kafkamv.connectors.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class JsonRowDecoderTest {

    private final JsonRowDecoder decoder = new JsonRowDecoder(List.of(
        new Column("id", SqlType.BIGINT, false), Column.of("name", SqlType.VARCHAR), Column.of("price", SqlType.DECIMAL),
        Column.of("day", SqlType.DATE), Column.of("at", SqlType.TIMESTAMP), Column.of("meta", SqlType.JSONB),
        Column.of("ok", SqlType.BOOLEAN)));

    @Test
    void readsEveryColumnFromItsField() {
        Object[] row = decode("{\"id\": 7, \"name\": \"tea\", \"price\": 2.50, \"day\": \"2024-02-29\", "
            + "\"at\": \"2024-02-29T10:00:00Z\", \"meta\": {\"tags\": [1, 2]}, \"ok\": true, \"extra\": 1}");

        assertThat(row).containsExactly(7L, "tea", new BigDecimal("2.50"), 19_782, 1_709_200_800_000L,
            "{\"tags\": [1, 2]}", true);
    }

    @Test
    void missingNullableFieldsAreNull() {
        assertThat(decode("{\"id\": 1}")).containsExactly(1L, null, null, null, null, null, null);
    }

    @Test
    void malformedRecordsSayWhy() {
        assertThatThrownBy(() -> decode("not json")).isInstanceOf(MalformedRecordException.class)
            .hasMessageStartingWith("not JSON");
        assertThatThrownBy(() -> decode("[1, 2]")).hasMessage("not a JSON object");
        assertThatThrownBy(() -> decode("{\"name\": \"x\"}")).hasMessage("field \"id\" is missing or null");
        assertThatThrownBy(() -> decode("{\"id\": \"seven\"}"))
            .hasMessage("field \"id\" does not fit type bigint: \"seven\"");
        assertThatThrownBy(() -> decode("{\"id\": 1.5}")).hasMessageContaining("field \"id\" does not fit type bigint");
    }

    @Test
    void integersTakeTheirColumnsJavaTypeAndAFieldGivenTwiceKeepsItsLastValue() {
        JsonRowDecoder numbers = new JsonRowDecoder(List.of(Column.of("i", SqlType.INTEGER), Column.of("b", SqlType.BIGINT),
            Column.of("s", SqlType.SMALLINT), Column.of("t", SqlType.VARCHAR), Column.of("ok", SqlType.BOOLEAN)));

        assertThat(numbers.decode("{\"i\": 7, \"b\": 7, \"s\": 7, \"t\": 7, \"ok\": \"yes\"}".getBytes(StandardCharsets.UTF_8)))
            .containsExactly(7, 7L, (short) 7, "7", true);
        assertThat(numbers.decode("{\"b\": 5000000000}".getBytes(StandardCharsets.UTF_8))[1])
            .isEqualTo(5_000_000_000L);
        assertThatThrownBy(() -> numbers.decode("{\"i\": 5000000000}".getBytes(StandardCharsets.UTF_8)))
            .hasMessageContaining("field \"i\" does not fit type integer");
        assertThat(numbers.decode("{\"t\": \"a\", \"i\": 1, \"t\": {\"x\": 1}, \"i\": null, \"ok\": false, \"ok\": true}"
            .getBytes(StandardCharsets.UTF_8))).containsExactly(null, null, null, "{\"x\":1}", true);
        assertThat(numbers.decode("{\"i\": 2.0}".getBytes(StandardCharsets.UTF_8))[0])
            .as("an integral decimal still fits, through its node").isEqualTo(2);
        assertThatThrownBy(() -> numbers.decode("{\"b\": 9223372036854775808}".getBytes(StandardCharsets.UTF_8)))
            .hasMessageContaining("field \"b\" does not fit type bigint");
    }

    private Object[] decode(String json) {
        return decoder.decode(json.getBytes(StandardCharsets.UTF_8));
    }
}
