package io.kafkamv.bench.measure;

import io.kafkamv.bench.BackfillQuery;
import io.kafkamv.bench.BenchContext;
import io.kafkamv.bench.BenchStack;
import io.kafkamv.bench.BrokerSetup;
import io.kafkamv.bench.ChildJvm;
import io.kafkamv.bench.EventTopics;
import io.kafkamv.bench.Kafka;
import io.kafkamv.bench.baseline.HandWrittenApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One query's backfill over the events topic, by the three contenders one after the other: kafka-mv
 * (CREATE until the view answers), the hand-written Kafka Streams application (start until it has committed the
 * end of its sources and repartition topics), and a raw consumer (the read limit). kafka-mv and the application
 * each run the query over the small topic first, in the same JVM.
 */
public final class Backfill {

    /** The three times, and kafka-mv's creation as watched from outside. */
    public record Result(BrokerSetup setup, BackfillQuery query, long rows, ViewCreation kafkaMv,
                         double handWrittenSeconds, double rawReadSeconds) {

        public double kafkaMvSeconds() {
            return kafkaMv.visibleSeconds();
        }

        public double ratioToHandWritten() {
            return handWrittenSeconds / kafkaMvSeconds();
        }

        public double ratioToRawRead() {
            return rawReadSeconds / kafkaMvSeconds();
        }
    }

    private static final Duration TIMEOUT = Duration.ofMinutes(30);
    private static int runs;

    private final BenchContext context;

    public Backfill(BenchContext context) {
        this.context = context;
    }

    public Result run(BackfillQuery query, long rows) throws Exception {
        double raw = rawRead();
        // Both contenders first run the query over the small topic: what is measured is the work, not the JIT
        // compiling it, which on two cores took as long as the backfill of a million rows itself.
        create(query.viewName() + "_warm_up", query.sqlOver("small"));
        ViewCreation kafkaMv = create(query.viewName(), query.sql());
        double handWritten = handWritten(query);
        return new Result(context.setup(), query, rows, kafkaMv, handWritten, raw);
    }

    /** The view created as this setup times it, then dropped. */
    private ViewCreation create(String view, String sql) throws Exception {
        ViewCreation creation = context.setup() == BrokerSetup.EMBEDDED
            ? ViewCreation.create(context.service(), view, sql, TIMEOUT)
            : ViewCreation.foreground(context.service(), view, sql, TIMEOUT);
        ViewCreation.drop(context.service(), view);
        return creation;
    }

    private double handWritten(BackfillQuery query) throws Exception {
        String applicationId = "bench-hand-written-" + query.name().toLowerCase(java.util.Locale.ROOT) + "-" + (++runs);
        Path stateDir = context.workDir().resolve(applicationId);
        List<String> sources = List.of(EventTopics.EVENTS);
        try (Admin admin = Admin.create(Kafka.properties(context.bootstrapServers()))) {
            try (ChildJvm app = ChildJvm.start(List.of("-cp", ChildJvm.classPath(), HandWrittenApp.class.getName(),
                    context.bootstrapServers(), query.name(), applicationId, stateDir.toString(), BenchStack.SMALL),
                HandWrittenApp.RUNNING, context.logDir().resolve(applicationId + ".log"), Duration.ofMinutes(5))) {
                long start = System.nanoTime();
                long deadline = start + TIMEOUT.toNanos();
                while (!Kafka.caughtUp(admin, applicationId, sources)) {
                    if (!app.isAlive()) {
                        throw new IllegalStateException("the hand-written app exited; see its log in " + context.logDir());
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the hand-written app did not finish within " + TIMEOUT);
                    }
                    Thread.sleep(20);
                }
                return (System.nanoTime() - start) / 1e9;
            }
        }
    }

    /** A plain consumer reading the events to their end, bytes only: how fast the broker can serve them. */
    private double rawRead() throws Exception {
        var properties = Kafka.properties(context.bootstrapServers());
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (Admin admin = Admin.create(Kafka.properties(context.bootstrapServers()));
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties,
                 new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<TopicPartition, Long> ends = Kafka.endOffsets(admin, List.of(EventTopics.EVENTS));
            long start = System.nanoTime();
            consumer.assign(ends.keySet());
            consumer.seekToBeginning(ends.keySet());
            List<TopicPartition> remaining = new ArrayList<>(ends.keySet());
            long bytes = 0;
            while (!remaining.isEmpty()) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                for (var record : records) {
                    bytes += record.value().length;
                }
                remaining.removeIf(partition -> consumer.position(partition) >= ends.get(partition));
            }
            if (bytes == 0 && !ends.values().stream().allMatch(end -> end == 0)) {
                throw new IllegalStateException("the raw read saw no bytes");
            }
            return (System.nanoTime() - start) / 1e9;
        }
    }
}
