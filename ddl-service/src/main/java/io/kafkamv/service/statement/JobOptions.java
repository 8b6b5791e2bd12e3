package io.kafkamv.service.statement;

import java.util.Map;
import java.util.Optional;

import io.kafkamv.compiler.parser.SqlObjectKind;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;

/**
 * The options of a CREATE's {@code WITH (...)} that belong to its job rather than to its object:
 * {@code backfill_rate_limit}, as RisingWave takes it. A view and an index have no other options; a sink's others are
 * its connector's.
 */
final class JobOptions {

    static final String BACKFILL_RATE_LIMIT = "backfill_rate_limit";

    private JobOptions() {
    }

    /**
     * The backfill rate limit the options set, if they set one.
     *
     * @throws SqlError 22023 for an option a view or an index does not have, or a limit that is no integer
     */
    static Optional<Long> backfillRateLimit(SqlObjectKind kind, Map<String, String> options) {
        if (kind != SqlObjectKind.SINK) {
            for (String option : options.keySet()) {
                if (!option.equals(BACKFILL_RATE_LIMIT)) {
                    throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "unrecognized parameter \"" + option + "\"", 0,
                        "a " + kind.sql().toLowerCase(java.util.Locale.ROOT) + " takes " + BACKFILL_RATE_LIMIT
                            + " (records per second for its backfill)");
                }
            }
        }
        String value = options.get(BACKFILL_RATE_LIMIT);
        if (value == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"" + BACKFILL_RATE_LIMIT
                + "\": \"" + value + "\" (records per second; 0 holds the backfill, a negative value means no limit)");
        }
    }
}
