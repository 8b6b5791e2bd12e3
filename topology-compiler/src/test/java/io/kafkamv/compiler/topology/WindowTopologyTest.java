package io.kafkamv.compiler.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class WindowTopologyTest {

    private static ViewHarness events() {
        return new ViewHarness().table("events", List.of("id"), new Column("id", SqlType.BIGINT, false),
            Column.of("ts", SqlType.TIMESTAMP), Column.of("v", SqlType.INTEGER));
    }

    @Test
    void tumblingWindowsCountRowsAndMoveThemWhenTheirTimeChanges() {
        try (ViewHarness harness = events()) {
            harness.view("CREATE MATERIALIZED VIEW per_minute AS SELECT window_start, window_end, count(*) AS n, "
                + "sum(v) AS total FROM TUMBLE(events, ts, INTERVAL '1' MINUTE) GROUP BY window_start, window_end");

            harness.upsert("events", 1L, at("10:00:05"), 1).upsert("events", 2L, at("10:00:59.999"), 2)
                .upsert("events", 3L, at("10:01:00"), 3).upsert("events", 4L, null, 4);
            assertThat(harness.rows()).containsExactlyInAnyOrder(
                List.of(at("10:00:00"), at("10:01:00"), 2L, 3L),
                List.of(at("10:01:00"), at("10:02:00"), 1L, 3L));

            harness.upsert("events", 1L, at("10:01:30"), 1);
            assertThat(harness.rows()).containsExactlyInAnyOrder(
                List.of(at("10:00:00"), at("10:01:00"), 1L, 2L),
                List.of(at("10:01:00"), at("10:02:00"), 2L, 4L));
        }
    }

    @Test
    void hoppingWindowsHoldARowInEveryWindowThatCoversIt() {
        try (ViewHarness harness = events()) {
            harness.view("CREATE MATERIALIZED VIEW sliding AS SELECT window_start, count(*) AS n "
                + "FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '3' MINUTE)) "
                + "GROUP BY window_start");

            harness.upsert("events", 1L, at("10:02:30"), 1);
            assertThat(harness.rows()).containsExactlyInAnyOrder(
                List.of(at("10:00:00"), 1L), List.of(at("10:01:00"), 1L), List.of(at("10:02:00"), 1L));

            harness.upsert("events", 1L, at("10:03:00"), 1).upsert("events", 2L, at("10:00:00"), 1);
            assertThat(harness.rows()).containsExactlyInAnyOrder(
                List.of(at("09:58:00"), 1L), List.of(at("09:59:00"), 1L), List.of(at("10:00:00"), 1L),
                List.of(at("10:01:00"), 1L), List.of(at("10:02:00"), 1L), List.of(at("10:03:00"), 1L));

            harness.delete("events", 2L);
            assertThat(harness.rows()).containsExactlyInAnyOrder(
                List.of(at("10:01:00"), 1L), List.of(at("10:02:00"), 1L), List.of(at("10:03:00"), 1L));
        }
    }

    private static Long at(String time) {
        return Instant.parse("2026-11-29T" + time + "Z").toEpochMilli();
    }
}
