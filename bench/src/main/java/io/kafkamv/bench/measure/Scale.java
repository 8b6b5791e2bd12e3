package io.kafkamv.bench.measure;

import io.kafkamv.bench.KafkaMvService;
import java.sql.Connection;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Many views at once on one instance: how long they take together, and what they cost in heap and threads. */
public final class Scale {

    /** {@code failure} is null for a step that finished, else why it did not (the other numbers are then NaN). */
    public record Result(int views, long rowsPerView, double seconds, double heapMiB, double threads, String failure) {

        public static Result failed(int views, long rowsPerView, Exception cause) {
            return new Result(views, rowsPerView, Double.NaN, Double.NaN, Double.NaN, String.valueOf(cause.getMessage()));
        }

        public double rowsPerSecondPerView() {
            return rowsPerView / seconds;
        }
    }

    private static final Pattern HEAP = Pattern.compile("(?m)^jvm_memory_used_bytes\\{[^}]*area=\"heap\"[^}]*} (\\S+)$");
    private static final Pattern THREADS = Pattern.compile("(?m)^jvm_threads_live_threads(?:\\{[^}]*})? (\\S+)$");

    private Scale() {
    }

    /** Creates {@code views} GROUP BY views over {@code source} in the background and waits for all. */
    public static Result measure(KafkaMvService service, String source, long rowsPerView, int views) throws Exception {
        long start = System.nanoTime();
        double seconds;
        String metrics;
        try (Connection connection = service.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET BACKGROUND_DDL = true");
            for (int i = 0; i < views; i++) {
                statement.execute("CREATE MATERIALIZED VIEW bench_scale_" + i + " AS SELECT g, count(*) AS n FROM "
                    + source + " GROUP BY g");
            }
            statement.execute("WAIT");
            seconds = (System.nanoTime() - start) / 1e9;
            metrics = service.metrics();
            for (int i = 0; i < views; i++) {
                statement.execute("DROP MATERIALIZED VIEW bench_scale_" + i);
            }
        }
        return new Result(views, rowsPerView, seconds, sum(HEAP, metrics) / (1024 * 1024), sum(THREADS, metrics), null);
    }

    private static double sum(Pattern gauge, String metrics) {
        Matcher matcher = gauge.matcher(metrics);
        double total = 0;
        boolean found = false;
        while (matcher.find()) {
            total += Double.parseDouble(matcher.group(1));
            found = true;
        }
        if (!found) {
            throw new IllegalStateException("the service's /metrics has no " + gauge.pattern());
        }
        return total;
    }
}
