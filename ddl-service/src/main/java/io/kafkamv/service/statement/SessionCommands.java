package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.SqlShow;
import io.kafkamv.connectors.format.DeadLetters;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSetOption;

/** SET, RESET and SHOW: session variables and listings of the catalog. */
final class SessionCommands {

    /** The names PostgreSQL's SHOW heads its column with where they are not all lower case. */
    private static final Map<String, String> CANONICAL_NAMES = Map.of(
        "timezone", "TimeZone", "datestyle", "DateStyle", "intervalstyle", "IntervalStyle");

    private final ServiceContext context;

    SessionCommands(ServiceContext context) {
        this.context = context;
    }

    StatementResult set(Session session, SqlSetOption option, String text) {
        String name = String.join(".", ((SqlIdentifier) option.name()).names);
        SqlNode value = option.getValue();
        if (value == null) {
            if ("all".equalsIgnoreCase(name)) {
                session.variables().keySet().forEach(session::reset);
            } else {
                session.reset(name);
            }
            return new StatementResult.Command("RESET");
        }
        if (isDefault(value)) {
            session.reset(name);
            return new StatementResult.Command("SET");
        }
        List<SqlNode> values = value instanceof SqlNodeList list ? list.getList() : List.of(value);
        for (SqlNode each : values) {
            if (each instanceof SqlLiteral literal && literal.getValue() == null) {
                throw SqlError.at(SqlState.SYNTAX_ERROR, "syntax error at or near \"NULL\"",
                    CompileException.positionOf(text, literal.getParserPosition()), null);
            }
        }
        String setting = String.join(", ", values.stream().map(SessionCommands::text).toList());
        session.set(name, checked(name, setting));
        return new StatementResult.Command("SET");
    }

    /** SET name TO DEFAULT, as the grammar gives it: the unquoted word DEFAULT. */
    static boolean isDefault(SqlNode value) {
        return value instanceof SqlIdentifier identifier && identifier.isSimple()
            && identifier.getSimple().equals("DEFAULT") && !identifier.isComponentQuoted(0);
    }

    private static String text(SqlNode value) {
        return value instanceof SqlLiteral literal ? literal.toValue()
            : value instanceof SqlIdentifier identifier ? String.join(".", identifier.names)
            : value.toString();
    }

    /** The value to keep, as SHOW shows it, once it is one the setting can take. */
    private static String checked(String name, String value) {
        switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "background_ddl" -> {
                if (!List.of("true", "false", "on", "off", "1", "0").contains(value.toLowerCase(java.util.Locale.ROOT))) {
                    throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE,
                        "parameter \"background_ddl\" requires a Boolean value");
                }
            }
            case "backfill_rate_limit" -> {
                try {
                    Long.parseLong(value);
                } catch (NumberFormatException e) {
                    throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE,
                        "parameter \"backfill_rate_limit\" requires an integer value");
                }
            }
            case "timezone" -> validateTimeZone(value);
            case "statement_timeout" -> {
                return TimeSetting.normalized(name, value);
            }
            default -> {
            }
        }
        return value;
    }

    /**
     * Every session is at UTC: a timestamptz is shown and read there. A zone that is UTC by another name is
     * taken; any other is refused, rather than kept in SHOW while values go on being shown at UTC.
     */
    private static void validateTimeZone(String value) {
        java.time.ZoneId zone;
        try {
            zone = java.time.ZoneId.of(value.equalsIgnoreCase("utc") || value.equalsIgnoreCase("gmt")
                ? value.toUpperCase(java.util.Locale.ROOT) : value);
        } catch (java.time.DateTimeException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for parameter \"TimeZone\": \"" + value + "\"");
        }
        if (!zone.getRules().isFixedOffset() || zone.getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds() != 0) {
            throw SqlError.at(SqlState.FEATURE_NOT_SUPPORTED, "time zone \"" + value + "\" is not supported: kafka-mv "
                + "sessions are at UTC", 0, "timestamptz values are shown and read at UTC, with their offset +00.");
        }
    }

    StatementResult show(Session session, SqlShow show) {
        return switch (show.what()) {
            case VARIABLE -> {
                String name = show.variable().orElseThrow();
                // The cluster's setting (ALTER SYSTEM SET), read from the job store; the rest are the session's.
                Optional<String> cluster = name.equalsIgnoreCase(JobStore.MAX_CONCURRENT_CREATING_JOBS)
                    ? Optional.of(String.valueOf(context.store().maxConcurrentCreatingJobs()))
                    : name.equalsIgnoreCase(JobStore.SHARED_VIEWS)
                    ? Optional.of(context.store().sharedViews() ? "on" : "off")
                    : Optional.empty();
                String value = cluster.or(() -> session.variable(name)).orElseThrow(() -> SqlError.of(
                    SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + name + "\""));
                String column = CANONICAL_NAMES.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), name);
                yield new StatementResult.Rows(List.of(new ResultColumn(column, SqlType.VARCHAR)),
                    List.of(Arrays.asList(value)), "SHOW");
            }
            case ALL -> {
                List<List<Object>> rows = new ArrayList<>();
                session.variables().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(entry -> rows.add(Arrays.asList(entry.getKey(), entry.getValue())));
                yield new StatementResult.Rows(List.of(new ResultColumn("Name", SqlType.VARCHAR),
                    new ResultColumn("Setting", SqlType.VARCHAR)), rows, "SHOW");
            }
            case TABLES -> names(ObjectKind.TABLE);
            case SOURCES -> sources();
            case MATERIALIZED_VIEWS -> names(ObjectKind.MATERIALIZED_VIEW);
            case SINKS -> names(ObjectKind.SINK);
            case INDEXES -> names(ObjectKind.INDEX);
            case JOBS -> throw new IllegalStateException("SHOW JOBS is a job command");
        };
    }

    /**
     * DESCRIBE: a table's, source's or view's columns, then its key, as RisingWave prints them. A view's
     * key is the columns its rows are unique by (its GROUP BY columns, say), when they are among its columns.
     */
    StatementResult describe(org.apache.calcite.sql.SqlDescribeTable describe) {
        SqlIdentifier identifier = describe.getTable();
        String name = identifier.names.get(identifier.names.size() - 1);
        CatalogEntry entry = context.catalog().entry(name)
            .filter(found -> found.visible() && found.kind() != ObjectKind.SINK && found.kind() != ObjectKind.INDEX)
            .orElseThrow(() -> SqlError.of(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist"));
        Relation relation = CatalogService.relation(entry);
        List<List<Object>> rows = new ArrayList<>();
        relation.schema().columns().forEach(column -> rows.add(Arrays.asList(column.name(),
            column.type().postgresName(), column.nullable() ? "yes" : "no")));
        List<String> columnNames = relation.schema().columns().stream().map(io.kafkamv.connectors.schema.Column::name).toList();
        List<String> key = relation.key().stream().map(io.kafkamv.connectors.schema.Column::name).toList();
        if (!key.isEmpty() && columnNames.containsAll(key)) {
            rows.add(Arrays.asList(entry.kind() == ObjectKind.MATERIALIZED_VIEW ? "unique key" : "primary key",
                String.join(", ", key), null));
        }
        return new StatementResult.Rows(List.of(new ResultColumn("Name", SqlType.VARCHAR),
            new ResultColumn("Type", SqlType.VARCHAR), new ResultColumn("Nullable", SqlType.VARCHAR)), rows, "DESCRIBE");
    }

    /**
     * Sources with the topic they read, its format, how many of its records could not be read, and the rate every job
     * reads it at (ALTER SOURCE ... SET SOURCE_RATE_LIMIT; empty for none).
     */
    private StatementResult sources() {
        Map<String, Long> limits = context.store().sourceRateLimits();
        List<List<Object>> rows = context.catalog().entries(ObjectKind.SOURCE).stream()
            .sorted(Comparator.comparing(CatalogEntry::name))
            .map(entry -> {
                Relation source = CatalogService.relation(entry);
                return Arrays.<Object>asList(entry.name(), source.topic(), source.format(),
                    DeadLetters.count(context.clientProperties(), source.deadLetterTopic()), limits.get(entry.name()));
            })
            .toList();
        return new StatementResult.Rows(List.of(new ResultColumn("Name", SqlType.VARCHAR),
            new ResultColumn("Topic", SqlType.VARCHAR), new ResultColumn("Format", SqlType.VARCHAR),
            new ResultColumn("Dead letters", SqlType.BIGINT), new ResultColumn("Rate limit", SqlType.BIGINT)), rows,
            "SHOW");
    }

    /** Visible objects of one kind; those still being created show up in SHOW JOBS instead. */
    private StatementResult names(ObjectKind kind) {
        List<List<Object>> rows = context.catalog().entries(kind).stream()
            .filter(CatalogEntry::visible)
            .sorted(Comparator.comparing(CatalogEntry::name))
            .map(entry -> Arrays.<Object>asList(entry.name()))
            .toList();
        return new StatementResult.Rows(List.of(new ResultColumn("Name", SqlType.VARCHAR)), rows, "SHOW");
    }
}
