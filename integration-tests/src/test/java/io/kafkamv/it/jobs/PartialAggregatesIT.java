package io.kafkamv.it.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.kafkamv.it.support.KafkaAdmin;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Aggregates of rows that are only ever inserted fold them into partials per group before the
 * exchange. The partials wait up to a flush interval, yet a view must not become visible, nor FLUSH
 * return, before they have reached the aggregates: what WAIT and FLUSH promise is exact totals at
 * once, checked right after they return.
 */
class PartialAggregatesIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void aViewIsExactWhenItBecomesVisibleAndAfterEveryFlush() throws Exception {
        Psql psql = SERVICE.psql();
        int rows = 300_000;
        Psql.Result filled = psql.session(List.of("CREATE TABLE t(v1 int)",
            "INSERT INTO t SELECT * FROM generate_series(1, " + rows + ")", "FLUSH"));
        assertThat(filled.exitCode()).as(filled.stderr()).isZero();

        Psql.Result created = psql.session(List.of("SET BACKGROUND_DDL=true",
            "CREATE MATERIALIZED VIEW per_digit AS SELECT v1 % 10 AS digit, count(*) AS n, sum(v1) AS s, max(v1) AS hi "
                + "FROM t GROUP BY v1 % 10",
            "CREATE MATERIALIZED VIEW everything AS SELECT count(*) AS n, sum(v1) AS s FROM t"));
        assertThat(created.exitCode()).as(created.stderr()).isZero();
        assertThat(totalsRightAfter(psql, "WAIT")).isEqualTo(expected(rows));
        assertThat(KafkaAdmin.topics(SERVICE.service().bootstrapServers()))
            .as("the partials' stores have changelogs, so a crash loses nothing they hold")
            .anyMatch(topic -> topic.endsWith("-partials-changelog"));

        for (int round = 1; round <= 5; round++) {
            int from = rows + 1;
            rows += 1_000 * round;
            assertThat(totalsRightAfter(psql, "INSERT INTO t SELECT * FROM generate_series(" + from + ", " + rows + ")",
                "FLUSH")).as("right after FLUSH, round %d", round).isEqualTo(expected(rows));
        }
    }

    /** The views' totals, read in the same session as soon as {@code statements} return. */
    private static String totalsRightAfter(Psql psql, String... statements) throws Exception {
        List<String> session = new java.util.ArrayList<>(List.of(statements));
        session.add("SELECT sum(n) || ',' || sum(s) || ',' || max(hi) || ',' || count(*) FROM per_digit");
        session.add("SELECT n || ',' || s FROM everything");
        Psql.Result result = psql.session(session, "-A", "-t");
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        String[] lines = result.stdout().split("\n");
        return lines[lines.length - 2] + " / " + lines[lines.length - 1];
    }

    private static String expected(long rows) {
        long sum = rows * (rows + 1) / 2;
        return rows + "," + sum + "," + rows + "," + Math.min(rows, 10) + " / " + rows + "," + sum;
    }
}
