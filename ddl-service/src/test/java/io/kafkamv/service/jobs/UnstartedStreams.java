package io.kafkamv.service.jobs;

import java.nio.file.Path;
import java.util.Properties;

import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;

/** A Kafka Streams instance of an exactly-once topology, never started: its clients and metrics exist, no broker is needed. */
final class UnstartedStreams {

    private UnstartedStreams() {
    }

    static KafkaStreams of(Path stateDir, KafkaClientSupplier clients) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in").to("out");
        Properties properties = new Properties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "unstarted-streams-test");
        properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        return new KafkaStreams(builder.build(), properties, clients);
    }
}
