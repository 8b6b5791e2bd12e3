package io.kafkamv.service.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kafkamv.service.error.SqlError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Values and displays as PostgreSQL 16's {@code SET statement_timeout = ...; SHOW statement_timeout} gives them. */
class TimeSettingTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "100|100ms", "5s|5s", "1min|1min", "60000|1min", "1500|1500ms", "0|0", "1.5s|1500ms", "100 ms|100ms",
        "2h|2h", "90000|90s", "1d|1d", "250us|0", "1500us|2ms", "0.5|0", "10 min|10min"})
    void readAndShownAsPostgresDoes(String value, String shown) {
        assertThat(TimeSetting.normalized("statement_timeout", value)).isEqualTo(shown);
    }

    @Test
    void aWrongUnitIsNamedWithTheUnitsThatAreRight() {
        assertThatThrownBy(() -> TimeSetting.millis("statement_timeout", "5 sec"))
            .isInstanceOfSatisfying(SqlError.class, error -> {
                assertThat(error.state().code()).isEqualTo("22023");
                assertThat(error.getMessage()).isEqualTo("invalid value for parameter \"statement_timeout\": \"5 sec\"");
                assertThat(error.hint()).contains("Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".");
            });
        assertThatThrownBy(() -> TimeSetting.millis("statement_timeout", "abc"))
            .isInstanceOfSatisfying(SqlError.class, error -> assertThat(error.hint()).isEmpty());
        assertThatThrownBy(() -> TimeSetting.millis("statement_timeout", "2147483648"))
            .isInstanceOfSatisfying(SqlError.class, error -> assertThat(error.hint()).contains("Value exceeds integer range."));
        assertThatThrownBy(() -> TimeSetting.millis("statement_timeout", "-1"))
            .hasMessage("-1 ms is outside the valid range for parameter \"statement_timeout\" (0 .. 2147483647)");
    }
}
