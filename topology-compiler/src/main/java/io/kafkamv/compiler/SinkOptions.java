package io.kafkamv.compiler;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.SinkOutput;
import io.kafkamv.compiler.plan.SinkOutput.SinkType;
import io.kafkamv.connectors.format.AvroRowEncoder;
import io.kafkamv.connectors.registry.SchemaRegistryClient;
import io.kafkamv.connectors.schema.Column;

/** Reads a sink's WITH options into where and how it writes, refusing what cannot work. */
final class SinkOptions {

    /** backfill_rate_limit and parallelism are the sink's job's, not its connector's: the service reads them as a view's. */
    private static final Set<String> KNOWN = Set.of("connector", "topic", "format", "type", "primary_key",
        "force_append_only", "url", "table", "user", "password", SchemaRegistryClient.URL_OPTION,
        SchemaRegistryClient.USERNAME_OPTION, SchemaRegistryClient.PASSWORD_OPTION, "backfill_rate_limit",
        "parallelism");
    private static final Map<String, String> ALIASES = Map.of("jdbc.url", "url", "table.name", "table");

    private SinkOptions() {
    }

    /** @param internalTopic the topic a JDBC sink's changes go through on their way to the table */
    static SinkOutput read(Map<String, String> given, PhysicalPlan plan, String internalTopic) {
        // RisingWave's names for the JDBC options work too.
        Map<String, String> options = new java.util.HashMap<>(given);
        ALIASES.forEach((alias, name) -> {
            if (options.containsKey(alias)) {
                options.putIfAbsent(name, options.remove(alias));
            }
        });
        for (String key : options.keySet()) {
            if (!KNOWN.contains(key)) {
                throw invalid("unknown sink option \"" + key + "\"", "sink options are " + String.join(", ",
                    KNOWN.stream().sorted().toList()));
            }
        }
        String connector = options.getOrDefault("connector", "kafka");
        if (connector.equals("jdbc")) {
            return jdbc(options, plan, internalTopic);
        }
        if (!connector.equals("kafka")) {
            throw invalid("sink connector \"" + connector + "\" is not supported", "use connector = 'kafka' or 'jdbc'");
        }
        String topic = options.get("topic");
        if (topic == null || topic.isBlank()) {
            throw invalid("a Kafka sink needs a topic", "add topic = '<name>' to WITH (...)");
        }
        TopicNames.checkNotInternal(topic, "a sink cannot write it");
        String format = options.getOrDefault("format", "json").toLowerCase(Locale.ROOT);
        if (!format.equals("json") && !format.equals("avro")) {
            throw invalid("sink format \"" + format + "\" is not supported", "use format = 'json' or 'avro'");
        }
        SinkType type = type(options.getOrDefault("type", "upsert"));
        Map<String, String> formatOptions = new java.util.TreeMap<>();
        if (format.equals("avro")) {
            formatOptions.putAll(avro(options, plan, type));
        }
        boolean force = Boolean.parseBoolean(options.getOrDefault("force_append_only", "false"));
        if (type == SinkType.APPEND_ONLY && !force && !plan.appendOnly()) {
            throw invalid("an append-only sink needs a query whose rows are never updated or deleted",
                "use type = 'upsert' or 'debezium', or force_append_only = 'true' to write inserts only");
        }
        List<String> keyColumns = keyColumns(options.get("primary_key"), plan, type);
        return new SinkOutput("kafka", topic, format, type, keyColumns, force, null, formatOptions);
    }

    /** An Avro sink's registry options, once its rows are known to make an Avro record. */
    private static Map<String, String> avro(Map<String, String> options, PhysicalPlan plan, SinkType type) {
        if (type == SinkType.DEBEZIUM) {
            throw invalid("a debezium sink writes JSON envelopes", "use format = 'json', or type = 'upsert' with Avro");
        }
        String registry = options.get(SchemaRegistryClient.URL_OPTION);
        if (registry == null || registry.isBlank()) {
            throw invalid("an Avro sink needs a Schema Registry", "add schema.registry = 'http://registry:8081' to WITH (...)");
        }
        try {
            AvroRowEncoder.schema("row", plan.schema().columns());
        } catch (IllegalArgumentException e) {
            throw invalid("the sink's columns cannot be an Avro record: " + e.getMessage(),
                "name each column with AS, using letters, digits and _");
        }
        Map<String, String> registryOptions = new java.util.TreeMap<>();
        options.forEach((key, value) -> {
            if (key.startsWith(SchemaRegistryClient.URL_OPTION)) {
                registryOptions.put(key, value);
            }
        });
        return registryOptions;
    }

    /** A JDBC sink: upserts into a PostgreSQL table by its primary key. */
    private static SinkOutput jdbc(Map<String, String> options, PhysicalPlan plan, String internalTopic) {
        String url = options.get("url");
        if (url == null || !url.startsWith("jdbc:postgresql:")) {
            throw invalid("a JDBC sink needs the url of a PostgreSQL database",
                "add url = 'jdbc:postgresql://host:5432/db' to WITH (...)");
        }
        String table = options.get("table");
        if (table == null || table.isBlank()) {
            throw invalid("a JDBC sink needs a table", "add table = '<name>' to WITH (...); the table must exist");
        }
        if (!options.getOrDefault("type", "upsert").equalsIgnoreCase("upsert")) {
            throw invalid("a JDBC sink is an upsert sink", "leave out type, or use type = 'upsert'");
        }
        List<String> keyColumns = keyColumns(options.get("primary_key"), plan, SinkType.UPSERT);
        return new SinkOutput("jdbc", internalTopic, "json", SinkType.UPSERT, keyColumns, false,
            new SinkOutput.Jdbc(url, table, options.get("user"), options.get("password")), Map.of());
    }

    private static SinkType type(String name) {
        return switch (name.toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "upsert" -> SinkType.UPSERT;
            case "append-only" -> SinkType.APPEND_ONLY;
            case "debezium" -> SinkType.DEBEZIUM;
            default -> throw invalid("sink type \"" + name + "\" is not supported",
                "use type = 'upsert', 'append-only' or 'debezium'");
        };
    }

    /** The given primary key, or else the rows' own key when it is made of their columns. */
    private static List<String> keyColumns(String option, PhysicalPlan plan, SinkType type) {
        List<String> columns = plan.schema().columns().stream().map(Column::name).toList();
        if (option != null) {
            List<String> key = Arrays.stream(option.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
            for (String column : key) {
                if (!columns.contains(column)) {
                    throw invalid("primary_key column \"" + column + "\" is not a column of the sink's query",
                        "the columns are " + String.join(", ", columns));
                }
            }
            return key;
        }
        List<String> own = plan.root().key().stream().map(Column::name).toList();
        if (columns.containsAll(own) && !own.isEmpty()) {
            return own;
        }
        if (type == SinkType.APPEND_ONLY) {
            return List.of();
        }
        throw invalid("the sink's rows have no key among their columns",
            "name the columns that identify a row with primary_key = 'col1,col2'");
    }

    private static CompileException invalid(String message, String hint) {
        return new CompileException(CompileException.Category.INVALID_OPTION, message, 0, hint);
    }
}
