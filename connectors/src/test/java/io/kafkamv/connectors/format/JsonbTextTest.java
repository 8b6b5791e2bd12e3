package io.kafkamv.connectors.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The expected texts are what PostgreSQL 15 printed for the same input cast to jsonb. */
class JsonbTextTest {

    @Test
    void spacesAfterSeparatorsAndKeysShortestFirstThenByBytes() {
        assertThat(JsonbText.of("{\"bb\":1,\"a\":{\"z\":[1,2,{}],\"y\":[]},\"ab\":null,\"é\":true}"))
            .isEqualTo("{\"a\": {\"y\": [], \"z\": [1, 2, {}]}, \"ab\": null, \"bb\": 1, \"é\": true}");
    }

    @Test
    void theLastOfTwoEqualKeysWins() {
        assertThat(JsonbText.of("{\"a\": 1, \"a\": 2}")).isEqualTo("{\"a\": 2}");
    }

    @Test
    void numbersKeepTheirDigitsAndLoseTheirExponent() {
        assertThat(JsonbText.of("[1.50, 1e2, 1.5e1, -0.0010, 12345678901234567890]"))
            .isEqualTo("[1.50, 100, 15, -0.0010, 12345678901234567890]");
    }

    @Test
    void stringsAreEscapedAsJson() {
        assertThat(JsonbText.of("[\"a\\\"b\", \"tab\\there\", \"ü/\"]")).isEqualTo("[\"a\\\"b\", \"tab\\there\", \"ü/\"]");
    }

    @Test
    void textThatIsNotJsonIsRefused() {
        assertThatThrownBy(() -> JsonbText.of("{bad")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("invalid input syntax for type json");
    }
}
