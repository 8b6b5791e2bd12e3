package io.kafkamv.bench.measure;

import io.kafkamv.bench.BenchStack;
import io.kafkamv.bench.KafkaMvService;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.common.GroupState;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Many views at once on one instance: how long they take together, and what they cost in heap and threads. */
public final class Scale {

    /**
     * {@code failure} is null for a step that finished, else why it did not (the other numbers are then NaN);
     * {@code shared}: created under {@code shared_views = on}, measured once all had moved into the shared application;
     * {@code steady}: what the views cost while their source was written to, null where not measured.
     */
    public record Result(int views, boolean shared, long rowsPerView, double seconds, double heapMiB, double residentMiB,
                         double threads, SteadyLoad.Result steady, String failure) {

        public static Result failed(int views, boolean shared, long rowsPerView, Exception cause) {
            return new Result(views, shared, rowsPerView, Double.NaN, Double.NaN, Double.NaN, Double.NaN, null,
                String.valueOf(cause.getMessage()));
        }

        public double rowsPerSecondPerView() {
            return rowsPerView / seconds;
        }
    }

    /** The consumer group of the shared application. */
    private static final String SHARED_GROUP = "kmv";
    private static final Pattern HEAP = Pattern.compile("(?m)^jvm_memory_used_bytes\\{[^}]*area=\"heap\"[^}]*} (\\S+)$");
    private static final Pattern THREADS = Pattern.compile("(?m)^jvm_threads_live_threads(?:\\{[^}]*})? (\\S+)$");

    private Scale() {
    }

    /**
     * Creates {@code views} GROUP BY views over {@code source} in the background and waits for all; with
     * {@code shared}, under {@code shared_views = on}, and the heap and threads are read once every view has moved into
     * the shared application (their own consumer groups are gone), which the log says how long after the WAIT. With
     * {@code steadyLoad}, the views' {@link SteadyLoad} is measured before they are dropped: it adds rows to their
     * source, so only a run's last step measures it.
     */
    public static Result measure(BenchStack stack, String source, long rowsPerView, int views, boolean shared,
                                 boolean steadyLoad) throws Exception {
        KafkaMvService service = stack.service();
        long start = System.nanoTime();
        double seconds;
        String metrics;
        double resident;
        SteadyLoad.Result steady;
        try (Connection connection = service.connect(); Statement statement = connection.createStatement()) {
            statement.execute("ALTER SYSTEM SET shared_views = " + (shared ? "on" : "off"));
            statement.execute("SET BACKGROUND_DDL = true");
            for (int i = 0; i < views; i++) {
                statement.execute("CREATE MATERIALIZED VIEW bench_scale_" + i + " AS SELECT g, count(*) AS n FROM "
                    + source + " GROUP BY g");
            }
            statement.execute("WAIT");
            seconds = (System.nanoTime() - start) / 1e9;
            if (shared) {
                awaitOwnGroupsGone(service, statement);
                System.out.printf("all %d views in the shared application, and it stable, %.1f s after the WAIT%n", views,
                    (System.nanoTime() - start) / 1e9 - seconds);
            }
            metrics = service.metrics();
            resident = service.residentMiB();
            steady = steadyLoad ? SteadyLoad.measure(stack) : null;
            for (int i = 0; i < views; i++) {
                statement.execute("DROP MATERIALIZED VIEW bench_scale_" + i);
            }
        }
        return new Result(views, shared, rowsPerView, seconds, sum(HEAP, metrics) / (1024 * 1024), resident,
            sum(THREADS, metrics), steady, null);
    }

    /** Until every view's own consumer group is gone and the shared application's group is stable. */
    private static void awaitOwnGroupsGone(KafkaMvService service, Statement statement) throws Exception {
        Set<String> own = new HashSet<>();
        try (ResultSet jobs = statement.executeQuery("SELECT id FROM kafka_mv.jobs WHERE name LIKE 'bench_scale_%'")) {
            while (jobs.next()) {
                own.add("kmv-job-" + jobs.getLong(1));
            }
        }
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, service.bootstrapServers());
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        try (Admin admin = Admin.create(properties)) {
            while (true) {
                Set<String> left = new HashSet<>(own);
                left.retainAll(admin.listGroups().all().get().stream().map(GroupListing::groupId).toList());
                // The last move ends by starting the shared application again, which opens every view's stores.
                if (left.isEmpty() && admin.describeConsumerGroups(List.of(SHARED_GROUP)).all().get().get(SHARED_GROUP)
                    .groupState() == GroupState.STABLE) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(left.size() + " views still run alone, or the shared application "
                        + "has not settled, 10 minutes after the WAIT");
                }
                Thread.sleep(500);
            }
        }
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
