package io.kafkamv.compiler.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

/** PostgreSQL's text input in Calcite's form; TextInputMatchesPostgresIT compares the results with PostgreSQL's. */
class PostgresTextInputTest {

    @Test
    void integersAsPostgresReadsThem() {
        assertThat(PostgresTextInput.toCalcite(" 42 ", SqlType.INTEGER)).hasValue("42");
        assertThat(PostgresTextInput.toCalcite("+7", SqlType.BIGINT)).hasValue("7");
        assertThatThrownBy(() -> PostgresTextInput.toCalcite("1.5", SqlType.INTEGER))
            .hasMessage("invalid input syntax for type integer: \"1.5\"");
        assertThatThrownBy(() -> PostgresTextInput.toCalcite("40000", SqlType.SMALLINT))
            .isInstanceOfSatisfying(InvalidInputException.class,
                e -> assertThat(e.reason()).isEqualTo(InvalidInputException.Reason.OUT_OF_RANGE))
            .hasMessage("value \"40000\" is out of range for type smallint");
    }

    @Test
    void booleansTakeEveryWordAndUniquePrefix() {
        assertThat(PostgresTextInput.bool("yes")).isTrue();
        assertThat(PostgresTextInput.bool("tr")).isTrue();
        assertThat(PostgresTextInput.bool(" OFF ")).isFalse();
        assertThat(PostgresTextInput.bool("0")).isFalse();
        assertThatThrownBy(() -> PostgresTextInput.bool("o")).as("on or off").isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> PostgresTextInput.bool("x")).hasMessage("invalid input syntax for type boolean: \"x\"");
    }

    @Test
    void numericsKeepTheirDigitsAndTimesTheirRange() {
        assertThat(PostgresTextInput.toCalcite(" 1.50 ", SqlType.DECIMAL)).hasValue("1.50");
        assertThat(PostgresTextInput.toCalcite("1e3", SqlType.DECIMAL)).hasValue("1000");
        assertThat(PostgresTextInput.toCalcite("NaN", SqlType.DECIMAL)).isEmpty();
        assertThatThrownBy(() -> PostgresTextInput.toCalcite("abc", SqlType.DECIMAL))
            .hasMessage("invalid input syntax for type numeric: \"abc\"");
        assertThat(PostgresTextInput.toCalcite("10:00", SqlType.TIME)).hasValue("10:00:00");
        assertThatThrownBy(() -> PostgresTextInput.toCalcite("10:00:99", SqlType.TIME))
            .hasMessage("date/time field value out of range: \"10:00:99\"");
        assertThatThrownBy(() -> PostgresTextInput.toCalcite("{bad", SqlType.JSONB))
            .hasMessage("invalid input syntax for type json");
        assertThat(PostgresTextInput.toCalcite("anything", SqlType.VARCHAR)).isEmpty();
    }

    @Test
    void byteaIsReadInHexAndInEscapeForm() {
        assertThat(PostgresTextInput.bytea("\\x0102ff")).containsExactly(1, 2, 255);
        assertThat(PostgresTextInput.bytea("ab\\\\c\\001")).containsExactly('a', 'b', '\\', 'c', 1);
        assertThatThrownBy(() -> PostgresTextInput.bytea("\\x012"))
            .isInstanceOf(InvalidInputException.class).hasMessage("invalid hexadecimal data: \"\\x012\"");
        assertThatThrownBy(() -> PostgresTextInput.bytea("a\\9"))
            .isInstanceOf(InvalidInputException.class).hasMessage("invalid input syntax for type bytea");
    }

    /** Each case is what PostgreSQL's array_to_json('...'::text[]) gives for the same text. */
    @Test
    void textArraysAsPostgresReadsThem() {
        assertThat(PostgresTextInput.textArray("{a, \"b c\" , NULL, \"NULL\", x\\,y, \" \", \"q\\\"r\"}"))
            .containsExactly("a", "b c", null, "NULL", "x,y", " ", "q\"r");
        assertThat(PostgresTextInput.textArray("{}")).isEmpty();
        assertThat(PostgresTextInput.textArray("{ a b }")).containsExactly("a b");
        for (String malformed : new String[] {"{a,,b}", "{a}b", "a,b", "{\"a}", "{a\\}"}) {
            assertThatThrownBy(() -> PostgresTextInput.textArray(malformed)).as(malformed)
                .hasMessage("malformed array literal: \"" + malformed + "\"");
        }
    }
}
