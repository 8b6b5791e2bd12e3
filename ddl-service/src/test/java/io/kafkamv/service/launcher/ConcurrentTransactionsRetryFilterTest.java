package io.kafkamv.service.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.apache.kafka.clients.producer.internals.Sender;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.internals.LogContext;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ConcurrentTransactionsRetryFilterTest {

    private static final String RETRYING = "Got error produce response with correlation id {} on topic-partition {}, "
        + "retrying ({} attempts left). Error: {}";

    @Test
    void dropsTheProducersRetriesAfterConcurrentTransactionsAndKeepsItsOtherProduceErrors() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        ConcurrentTransactionsRetryFilter filter = new ConcurrentTransactionsRetryFilter();
        filter.start();
        context.addTurboFilter(filter);
        Logger sender = context.getLogger(Sender.class);
        Level level = sender.getLevel();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        sender.addAppender(logged);
        sender.setLevel(Level.WARN);
        try {
            // Through the producer's own logger, which puts its client id before every message.
            org.slf4j.Logger producerLog = new LogContext("[Producer clientId=kmv-job-1-StreamThread-1-producer] ")
                .logger(Sender.class);
            TopicPartition partition = new TopicPartition("kmv-job-1-repartition", 0);
            producerLog.warn(RETRYING, 107L, partition, Integer.MAX_VALUE - 1, "CONCURRENT_TRANSACTIONS");
            producerLog.warn(RETRYING, 108L, partition, 3, "NOT_LEADER_OR_FOLLOWER");

            assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage).singleElement().asString()
                .contains("correlation id 108").endsWith("Error: NOT_LEADER_OR_FOLLOWER");
        } finally {
            sender.detachAppender(logged);
            sender.setLevel(level);
            context.getTurboFilterList().remove(filter);
        }
    }
}
