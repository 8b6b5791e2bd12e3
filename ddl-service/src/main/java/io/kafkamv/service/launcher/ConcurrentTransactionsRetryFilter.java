package io.kafkamv.service.launcher;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

/**
 * Drops the producer's warning that it retries a produce request the broker answered with CONCURRENT_TRANSACTIONS.
 * A transaction's first records may reach a partition while the markers of the job's previous transaction are still
 * being written; the broker asks the producer to try again a few milliseconds later, and it does. Expected and
 * harmless, but with exactly-once commits every 200 ms it was 38,000 warnings in 8 minutes with 100 views being
 * created (issue 21), burying the warnings that matter. Any other produce error is still logged.
 */
public final class ConcurrentTransactionsRetryFilter extends TurboFilter {

    private static final String SENDER = "org.apache.kafka.clients.producer.internals.Sender";

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level != Level.WARN || !SENDER.equals(logger.getName()) || format == null
            || !format.contains("Got error produce response")) {
            return FilterReply.NEUTRAL;
        }
        // Kafka's logger formats the message itself and hands it over whole; a plain SLF4J call would pass the error
        // as the last argument.
        boolean concurrentTransactions = params != null && params.length > 0
            ? String.valueOf(params[params.length - 1]).startsWith("CONCURRENT_TRANSACTIONS")
            : format.contains("Error: CONCURRENT_TRANSACTIONS");
        return concurrentTransactions ? FilterReply.DENY : FilterReply.NEUTRAL;
    }
}
