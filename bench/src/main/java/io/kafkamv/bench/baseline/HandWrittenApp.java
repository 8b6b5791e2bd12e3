package io.kafkamv.bench.baseline;

import io.kafkamv.bench.BackfillQuery;
import io.kafkamv.bench.Kafka;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The baseline as its own JVM: {@code HandWrittenApp <bootstrap> <query> <application id> <state dir>}.
 * It runs until it is stopped; the harness watches its committed offsets to see when it is done.
 */
public final class HandWrittenApp {

    public static final String RUNNING = "hand-written app running";

    private HandWrittenApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        Properties properties = Kafka.properties(args[0]);
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, args[2]);
        properties.put(StreamsConfig.STATE_DIR_CONFIG, args[3]);
        properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
        properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        // The consumer settings kafka-mv uses, so that neither side wins by fetch tuning alone.
        properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 5000);
        properties.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG), 4 * 1024 * 1024);
        KafkaStreams streams = new KafkaStreams(HandWrittenQueries.build(BackfillQuery.valueOf(args[1])), properties);
        Runtime.getRuntime().addShutdownHook(new Thread(streams::close));
        streams.start();
        System.out.println(RUNNING);
        Thread.currentThread().join();
    }
}
