package io.kafkamv.bench.baseline;

import io.kafkamv.bench.BackfillQuery;
import io.kafkamv.bench.Kafka;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The baseline as its own JVM: {@code HandWrittenApp <bootstrap> <query> <application id> <state dir> [warm-up topic]}.
 * It runs until it is stopped; the harness watches its committed offsets to see when it is done, from the moment it
 * says it runs (after its warm-up, when it has one).
 */
public final class HandWrittenApp {

    public static final String RUNNING = "hand-written app running";

    private HandWrittenApp() {
    }

    public static void main(String[] args) throws Exception {
        BackfillQuery query = BackfillQuery.valueOf(args[1]);
        if (args.length > 4) {
            // Not named after the measured application: its repartition topics would count as that one's.
            warmUp(args[0], query, "warm-up-" + args[2], args[3] + "-warm-up", args[4]);
        }
        KafkaStreams streams = new KafkaStreams(HandWrittenQueries.build(query), properties(args[0], args[2], args[3]));
        Runtime.getRuntime().addShutdownHook(new Thread(streams::close));
        streams.start();
        System.out.println(RUNNING);
        Thread.currentThread().join();
    }

    /**
     * The same query over the small topic, to its end, in this JVM first: the measured run then starts with
     * its code compiled, as kafka-mv's does after its own warm-up, instead of paying the JIT in its time.
     */
    private static void warmUp(String bootstrap, BackfillQuery query, String applicationId, String stateDir, String topic)
        throws Exception {
        try (KafkaStreams streams = new KafkaStreams(HandWrittenQueries.build(query, topic),
                properties(bootstrap, applicationId, stateDir));
             Admin admin = Admin.create(Kafka.properties(bootstrap))) {
            streams.start();
            long deadline = System.nanoTime() + java.time.Duration.ofMinutes(5).toNanos();
            while (!Kafka.caughtUp(admin, applicationId, List.of(topic))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the warm-up over " + topic + " did not finish within 5 minutes");
                }
                Thread.sleep(20);
            }
        }
    }

    private static Properties properties(String bootstrap, String applicationId, String stateDir) {
        Properties properties = Kafka.properties(bootstrap);
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
        properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        // The consumer settings kafka-mv uses, so that neither side wins by fetch tuning alone.
        properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 5000);
        properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG), 4 * 1024 * 1024);
        return properties;
    }
}
