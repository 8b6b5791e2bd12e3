package io.kafkamv.compiler.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

/** PostgreSQL's datetime input in Calcite's form; DatetimeInputMatchesPostgresIT compares the results with PostgreSQL's. */
class PostgresDatetimesTest {

    @Test
    void isoTimestampsAsClientsSendThem() {
        assertThat(PostgresDatetimes.toCalcite("2026-01-01T00:01:00", SqlType.TIMESTAMP)).isEqualTo("2026-01-01 00:01:00");
        assertThat(PostgresDatetimes.toCalcite("2026-01-01t00:01:00.500", SqlType.TIMESTAMP))
            .isEqualTo("2026-01-01 00:01:00.5");
        assertThat(PostgresDatetimes.toCalcite("2026-01-01 00:01:00+02", SqlType.TIMESTAMP))
            .as("a timestamp ignores an offset").isEqualTo("2026-01-01 00:01:00");
        assertThat(PostgresDatetimes.toCalcite(" 2026-1-2 ", SqlType.TIMESTAMP)).isEqualTo("2026-01-02 00:00:00");
    }

    @Test
    void timestampsWithATimeZoneAreTheSameInstantInUtc() {
        assertThat(PostgresDatetimes.toCalcite("2026-01-01T00:01:00+02:00", SqlType.TIMESTAMPTZ))
            .isEqualTo("2025-12-31 22:01:00 UTC");
        assertThat(PostgresDatetimes.toCalcite("2026-01-01T00:01:00Z", SqlType.TIMESTAMPTZ)).isEqualTo("2026-01-01 00:01:00 UTC");
        assertThat(PostgresDatetimes.toCalcite("2026-01-01 00:01:00-0530", SqlType.TIMESTAMPTZ))
            .isEqualTo("2026-01-01 05:31:00 UTC");
        assertThat(PostgresDatetimes.toCalcite("2026-06-01 12:00:00 Europe/Paris", SqlType.TIMESTAMPTZ))
            .isEqualTo("2026-06-01 10:00:00 UTC");
        assertThat(PostgresDatetimes.toCalcite("2026-01-01 00:01:00", SqlType.TIMESTAMPTZ))
            .as("no zone: the session's, UTC").isEqualTo("2026-01-01 00:01:00 UTC");
    }

    @Test
    void aDateTakesTheDateOfATimestamp() {
        assertThat(PostgresDatetimes.toCalcite("2026-01-01T10:00:00", SqlType.DATE)).isEqualTo("2026-01-01");
    }

    @Test
    void whatPostgresRefusesIsRefusedWithItsWords() {
        assertThatThrownBy(() -> PostgresDatetimes.toCalcite("garbage", SqlType.TIMESTAMP))
            .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                assertThat(e).hasMessage("invalid input syntax for type timestamp: \"garbage\"");
                assertThat(e.reason()).isEqualTo(InvalidInputException.Reason.DATETIME_SYNTAX);
            });
        assertThatThrownBy(() -> PostgresDatetimes.toCalcite("2026-13-01", SqlType.DATE))
            .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                assertThat(e).hasMessage("date/time field value out of range: \"2026-13-01\"");
                assertThat(e.reason()).isEqualTo(InvalidInputException.Reason.DATETIME_FIELD_OUT_OF_RANGE);
            });
        assertThatThrownBy(() -> PostgresDatetimes.toCalcite("2026-01-01 10:00 Nowhere/City", SqlType.TIMESTAMPTZ))
            .hasMessage("time zone \"nowhere/city\" not recognized");
    }
}
