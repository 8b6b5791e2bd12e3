package io.kafkamv.compiler.functions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import io.kafkamv.compiler.ReferencePostgres;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/** The PostgreSQL functions kafka-mv adds to Calcite's, against a real PostgreSQL ({@code bin/test-postgres start}). */
class FunctionsMatchPostgresIT {

    private static final List<String> TEXTS = List.of("", "ann", "naïve", "日本語", "emoji 🎉!");
    private static final List<String> UNITS = List.of("microseconds", "milliseconds", "second", "minute", "hour", "day",
        "week", "month", "quarter", "year", "decade", "century", "millennium", "MONTH", "mins", "hours");
    private static final List<String> TIMESTAMPS = List.of("2026-11-29 10:07:45.123", "2000-01-01 00:00:00",
        "1999-12-31 23:59:59.999", "2026-03-01 00:00:00.5", "1901-07-04 12:30:00", "2100-02-28 06:00:00",
        "1969-12-31 23:59:59.001");

    @Test
    void dateTruncGivesWhatPostgresGives() throws SQLException {
        SoftAssertions softly = new SoftAssertions();
        try (Connection postgres = ReferencePostgres.connect();
             PreparedStatement dateTrunc = postgres.prepareStatement("SELECT date_trunc(?, CAST(? AS timestamp))::text")) {
            for (String unit : UNITS) {
                for (String timestamp : TIMESTAMPS) {
                    dateTrunc.setString(1, unit);
                    dateTrunc.setString(2, timestamp);
                    long millis = java.time.LocalDateTime.parse(timestamp.replace(' ', 'T'))
                        .toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
                    softly.assertThat(text(DateTruncFunction.truncate(unit, millis)))
                        .as("date_trunc('%s', '%s')", unit, timestamp).isEqualTo(single(dateTrunc));
                }
            }
        }
        softly.assertAll();
    }

    /** PostgreSQL's text form of a timestamp: the fraction only when there is one, without trailing zeros. */
    private static String text(long millis) {
        String value = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000L),
            (int) Math.floorMod(millis, 1000L) * 1_000_000, java.time.ZoneOffset.UTC).toString().replace('T', ' ');
        value = value.length() == 16 ? value + ":00" : value;
        return value.contains(".") ? value.replaceAll("0+$", "") : value;
    }

    @Test
    void lengthGivesWhatPostgresGives() throws SQLException {
        SoftAssertions softly = new SoftAssertions();
        try (Connection postgres = ReferencePostgres.connect();
             PreparedStatement length = postgres.prepareStatement("SELECT length(?)")) {
            for (String text : TEXTS) {
                length.setString(1, text);
                softly.assertThat(TextFunctions.length(text)).as("length('%s')", text)
                    .isEqualTo(Integer.valueOf(single(length)));
            }
        }
        softly.assertAll();
    }


    private static String single(PreparedStatement statement) throws SQLException {
        try (ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getString(1);
        }
    }
}
