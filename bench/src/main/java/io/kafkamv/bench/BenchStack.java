package io.kafkamv.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A broker and a kafka-mv on it, set up one of the two {@link BrokerSetup} ways, with the harness's topics created:
 * the events (grown by {@link #growEventsTo}), the dimension rows and the small topic the many-views step reads.
 */
public final class BenchStack implements AutoCloseable {

    public static final String SMALL = "bench_small";

    private final BrokerSetup setup;
    private final ChildJvm broker;
    private final KafkaMvService service;
    private final EventTopics topics;
    private long events;
    private long smallRows;

    private BenchStack(BrokerSetup setup, ChildJvm broker, KafkaMvService service) {
        this.setup = setup;
        this.broker = broker;
        this.service = service;
        this.topics = new EventTopics(service.bootstrapServers());
    }

    public static BenchStack start(BrokerSetup setup, Path serviceJar, Path workDir, Path logDir, long smallRows)
        throws Exception {
        Path dir = workDir.resolve(setup.name().toLowerCase(java.util.Locale.ROOT));
        ChildJvm broker = null;
        KafkaMvService service;
        if (setup == BrokerSetup.EXTERNAL) {
            broker = ChildJvm.start(List.of("-cp", ChildJvm.classPath(), BrokerMain.class.getName(),
                dir.resolve("kafka").toString()), BrokerMain.READY, logDir.resolve("broker.log"), Duration.ofSeconds(90));
            String bootstrap = broker.readyLine().substring(BrokerMain.READY.length()).trim();
            service = KafkaMvService.start(serviceJar, dir.resolve("kafka-mv"), bootstrap, logDir);
        } else {
            service = KafkaMvService.startWithEmbeddedBroker(serviceJar, dir.resolve("kafka-mv"), logDir);
        }
        BenchStack stack = new BenchStack(setup, broker, service);
        try {
            stack.prepare(smallRows);
        } catch (Exception e) {
            stack.close();
            throw e;
        }
        return stack;
    }

    private void prepare(long smallRows) throws Exception {
        topics.create(EventTopics.EVENTS, EventTopics.DIMS, SMALL);
        topics.appendDims();
        topics.appendEvents(SMALL, 0, smallRows);
        this.smallRows = smallRows;
        try (var connection = service.connect(); var statement = connection.createStatement()) {
            for (String source : List.of("events:" + EventTopics.EVENTS, "small:" + SMALL)) {
                String[] nameAndTopic = source.split(":");
                statement.execute("CREATE SOURCE " + nameAndTopic[0] + " (id BIGINT, g INT, v INT) WITH (connector = "
                    + "'kafka', topic = '" + nameAndTopic[1] + "', format = 'json')");
            }
            statement.execute("CREATE SOURCE dims (g INT, name VARCHAR) WITH (connector = 'kafka', topic = '"
                + EventTopics.DIMS + "', format = 'json')");
            // A lookup join reads a table by its primary key: the dims keyed by g, as EventTopics writes them.
            statement.execute("CREATE TABLE dims_by_g (g INT PRIMARY KEY, name VARCHAR)");
            statement.execute("INSERT INTO dims_by_g SELECT g, 'group-' || g FROM generate_series(0, "
                + (EventTopics.GROUPS - 1) + ") AS s(g)");
        }
    }

    /** Appends events until the topic holds {@code rows} of them. */
    public void growEventsTo(long rows) {
        if (rows > events) {
            topics.appendEvents(EventTopics.EVENTS, events, rows);
            events = rows;
        }
    }

    /** Appends events to the small topic at {@code rate} per second for {@code duration}; returns how many. */
    public long writeSmallAt(int rate, Duration duration) {
        long before = smallRows;
        smallRows = topics.appendEventsAt(SMALL, smallRows, rate, duration);
        return smallRows - before;
    }

    /** CPU time the broker's JVM has used so far; empty when the broker runs in kafka-mv's (embedded). */
    public java.util.Optional<Duration> brokerCpuTime() {
        return broker == null ? java.util.Optional.empty() : java.util.Optional.of(broker.cpuTime());
    }

    public BenchContext context(Path workDir, Path logDir) {
        return new BenchContext(setup, service.bootstrapServers(), service, workDir, logDir);
    }

    public KafkaMvService service() {
        return service;
    }

    @Override
    public void close() throws IOException {
        service.close();
        if (broker != null) {
            broker.close();
        }
    }
}
