package io.kafkamv.service.statement;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.kafkamv.compiler.parser.SqlObjectKind;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.jobs.JobParallelism;

/**
 * The options of a CREATE's {@code WITH (...)} that belong to its job rather than to its object:
 * {@code backfill_rate_limit} and {@code parallelism}, as RisingWave takes them. A view and an index have no other
 * options; a sink's others are its connector's.
 *
 * @param backfillRateLimit records per second for the backfill, if set
 * @param parallelism       stream threads per instance, if set
 */
record JobOptions(Optional<Long> backfillRateLimit, Optional<Integer> parallelism) {

    static final String BACKFILL_RATE_LIMIT = "backfill_rate_limit";
    static final String PARALLELISM = "parallelism";
    private static final Set<String> OPTIONS = Set.of(BACKFILL_RATE_LIMIT, PARALLELISM);

    /** @throws SqlError 22023 for an option a view or an index does not have, or a value out of its range */
    static JobOptions of(SqlObjectKind kind, Map<String, String> options) {
        if (kind != SqlObjectKind.SINK) {
            for (String option : options.keySet()) {
                if (!OPTIONS.contains(option)) {
                    throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "unrecognized parameter \"" + option + "\"", 0,
                        "a " + kind.sql().toLowerCase(Locale.ROOT) + " takes " + BACKFILL_RATE_LIMIT
                            + " (records per second for its backfill) and " + PARALLELISM
                            + " (stream threads per instance)");
                }
            }
        }
        return new JobOptions(Optional.ofNullable(options.get(BACKFILL_RATE_LIMIT)).map(JobOptions::rateLimitOf),
            Optional.ofNullable(options.get(PARALLELISM)).map(JobOptions::parallelismOf));
    }

    static long rateLimitOf(String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"" + BACKFILL_RATE_LIMIT
                + "\": \"" + value + "\" (records per second; 0 holds the backfill, a negative value means no limit)");
        }
    }

    static int parallelismOf(String value) {
        try {
            int threads = Integer.parseInt(value.strip());
            if (threads >= 1 && threads <= JobParallelism.MAX) {
                return threads;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"" + PARALLELISM + "\": \""
            + value + "\" (stream threads per instance, from 1 to " + JobParallelism.MAX + ")");
    }
}
