package io.kafkamv.compiler.types;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import io.kafkamv.compiler.ReferencePostgres;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** Interval input and output as a real PostgreSQL reads and prints them ({@code bin/test-postgres start}). */
class PostgresIntervalMatchesPostgresIT {

    private static final List<String> INPUTS = List.of("1 day", "2 days", "1 hour", "2 hours 30 minutes", "90 minutes",
        "01:30:00", "1 day 02:00:00", "-1 day", "-2 hours", "1.5 seconds", "0.001 seconds", "3 days ago",
        "1 week", "1.5 days", "@ 4 hours", "1 day -02:00:00", "36 hours", "0", "10", "1 sec", "5 mins", "2 hrs",
        "12:34", "100:00:00", "1 month", "2 years", "1.5 years", "1 year 3 months", "3 mons", "1 decade",
        "-1 month", "1 year ago", "1.5 months", "1d", "2h 30m", "1 day 2 hours 3 minutes 4.5 seconds");

    private static final List<String> INVALID = List.of("abc", "", "1 fortnight", "ago");

    @Test
    void intervalsAreReadAndPrintedAsPostgresDoes() throws SQLException {
        SoftAssertions softly = new SoftAssertions();
        try (Connection postgres = ReferencePostgres.connect()) {
            for (String input : INPUTS) {
                PostgresInterval interval = PostgresInterval.parse(input);
                softly.assertThat(interval.months()).as("months of '%s'", input).isEqualTo(Integer.parseInt(ReferencePostgres.value(postgres,
                    "SELECT (extract(year FROM i) * 12 + extract(month FROM i))::int FROM (SELECT CAST(? AS interval) AS i) t",
                    input)));
                softly.assertThat(interval.millis()).as("milliseconds of '%s'", input).isEqualTo(Long.parseLong(ReferencePostgres.value(
                    postgres, "SELECT round((extract(epoch FROM i) - extract(year FROM i) * 365.25 * 86400 "
                        + "- extract(month FROM i) * 30 * 86400) * 1000)::bigint FROM (SELECT CAST(? AS interval) AS i) t",
                    input)));
                if (interval.months() == 0) {
                    // PostgreSQL keeps days apart from hours; kafka-mv prints hours past a day as PostgreSQL's
                    // justify_hours does, the form of a difference of timestamps.
                    softly.assertThat(PostgresInterval.format(interval.millis())).as("text of '%s'", input)
                        .isEqualTo(ReferencePostgres.value(postgres, "SELECT justify_hours(CAST(? AS interval))::text", input));
                }
            }
            for (String input : INVALID) {
                softly.assertThatThrownBy(() -> ReferencePostgres.value(postgres, "SELECT CAST(? AS interval)", input))
                    .as("PostgreSQL refuses '%s'", input).isInstanceOf(SQLException.class);
                softly.assertThatThrownBy(() -> PostgresInterval.parse(input)).as("'%s'", input)
                    .isInstanceOf(InvalidInputException.class);
            }
        }
        softly.assertAll();
        assertThatThrownBy(() -> PostgresInterval.parse("1 day x")).hasMessage("invalid input syntax for type interval: \"1 day x\"");
    }
}
