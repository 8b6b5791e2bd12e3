package io.kafkamv.bench.measure;

import io.kafkamv.bench.KafkaMvService;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** How long a background CREATE MATERIALIZED VIEW takes to return over a source of a given size. */
public final class BackgroundDdl {

    /** Milliseconds of each CREATE, fastest first. */
    public record Result(long sourceRows, List<Double> createMillis) {

        public double median() {
            return createMillis.get(createMillis.size() / 2);
        }

        public double max() {
            return createMillis.get(createMillis.size() - 1);
        }
    }

    private static final int CREATES = 5;

    private BackgroundDdl() {
    }

    /** Creates a GROUP BY view a few times, cancelling each job at once, and times each CREATE. */
    public static Result measure(KafkaMvService service, long sourceRows) throws Exception {
        List<Double> millis = new ArrayList<>();
        try (Connection connection = service.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET BACKGROUND_DDL = true");
            for (int i = 0; i < CREATES; i++) {
                String view = "bench_ddl_" + sourceRows + "_" + i;
                long start = System.nanoTime();
                statement.execute("CREATE MATERIALIZED VIEW " + view + " AS SELECT g, count(*) AS n FROM events GROUP BY g");
                millis.add((System.nanoTime() - start) / 1e6);
                long job = service.jobOf(view).orElseThrow(() -> new IllegalStateException("no job for " + view));
                statement.execute("CANCEL JOBS " + job);
            }
        }
        millis.sort(null);
        return new Result(sourceRows, List.copyOf(millis));
    }
}
