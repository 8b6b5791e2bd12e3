package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.TopicNames;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.parser.SourceInclude;
import io.kafkamv.compiler.parser.SqlCreateRelation;
import io.kafkamv.compiler.parser.SqlObjectKind;
import io.kafkamv.connectors.format.IncludedColumns;
import io.kafkamv.connectors.format.SourceRecordDecoder;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.NumericTypmod;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.jobstore.ObjectStatus;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.jobs.Offsets;
import io.kafkamv.service.result.Notices;
import io.kafkamv.service.result.StatementResult;
import io.kafkamv.service.tables.NewTopics;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.kafka.common.KafkaException;

/** CREATE TABLE, CREATE SOURCE and DROP of them: tables are topics that kafka-mv writes, sources topics others write. */
final class TableCommands {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TableCommands.class);

    private final ServiceContext context;
    private final NewTopics newTopics;

    TableCommands(ServiceContext context) {
        this.context = context;
        this.newTopics = new NewTopics(context.admin(), context.replicationFactor());
    }

    StatementResult create(SqlCreateRelation statement, String text, Notices notices) {
        PlainSecrets.notice(statement.options(), notices);
        String name = statement.name().getSimple();
        if (context.catalog().entry(name).isPresent()) {
            if (statement.ifNotExists()) {
                notices.notice("relation \"" + name + "\" already exists, skipping");
                return new StatementResult.Command(statement.kind().createTag());
            }
            throw SqlError.of(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
        }
        if (statement.kind() == SqlObjectKind.SOURCE) {
            return createSource(statement, text);
        }
        if (!statement.includes().isEmpty()) {
            throw SqlError.at(SqlState.SYNTAX_ERROR, "INCLUDE is for sources", offset(text, statement.includes().get(0)),
                "a table's rows have only the columns you declare; a source can INCLUDE the record's timestamp, "
                    + "partition, offset, key or a header");
        }
        for (String option : statement.options().keySet()) {
            if (!option.equals("partitions")) {
                // As PostgreSQL answers an unknown storage parameter; a table's topic settings are kafka-mv's (a
                // retention would delete rows the table still holds).
                throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "unrecognized parameter \"" + option + "\"", 0,
                    "CREATE TABLE takes WITH (partitions = n); a source reads a topic whose settings are yours");
            }
        }
        RowSchema schema = schema(statement, text);
        List<Column> key = schema.appendOnly() ? List.of(Relation.ROW_ID)
            : schema.keyColumns().stream().map(column -> schema.column(column).orElseThrow()).toList();
        int partitions = partitions(statement.options());
        String topic = TopicNames.of("table", name, String.valueOf(context.store().allocateJobId()));
        createTopic(topic, partitions, !schema.appendOnly());
        Relation relation = new Relation(name, schema, key, topic);
        createOrUndo(CatalogService.entry(relation, ObjectKind.TABLE, ObjectStatus.CREATED,
            SqlCompiler.normalize(statement), 0), topic);
        return new StatementResult.Command(SqlObjectKind.TABLE.createTag());
    }

    /**
     * CREATE SOURCE: a relation over a topic others write. Nothing is copied; views read the topic
     * and send what they cannot read to the source's dead-letter topic.
     */
    private StatementResult createSource(SqlCreateRelation statement, String text) {
        String name = statement.name().getSimple();
        Map<String, String> options = statement.options();
        String connector = options.get("connector");
        if (!"kafka".equals(connector)) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, connector == null
                ? "CREATE SOURCE needs WITH (connector = 'kafka', topic = '...', format = 'json')"
                : "connector '" + connector + "' is not supported; use connector = 'kafka'");
        }
        String topic = options.get("topic");
        if (topic == null) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "CREATE SOURCE needs WITH (topic = '...')");
        }
        TopicNames.checkNotInternal(topic, "a source cannot read it", true);
        String format = options.getOrDefault("format", "json").toLowerCase(java.util.Locale.ROOT);
        if (!SourceRecordDecoder.FORMATS.contains(format)) {
            throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED, "format '" + format + "' is not supported yet; use "
                + String.join(" or ", SourceRecordDecoder.FORMATS.stream().sorted().map(f -> "'" + f + "'").toList()));
        }
        String startup = options.getOrDefault(Offsets.STARTUP_MODE, "earliest");
        if (!List.of("earliest", "latest", "timestamp").contains(startup)) {
            throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "scan.startup.mode '" + startup + "' is not supported", 0,
                "use 'earliest' (the default), 'latest', or 'timestamp' with scan.startup.timestamp.millis");
        }
        if (startup.equals("timestamp")) {
            try {
                Long.parseLong(options.getOrDefault(Offsets.STARTUP_TIMESTAMP, ""));
            } catch (NumberFormatException e) {
                throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "scan.startup.mode 'timestamp' needs "
                    + Offsets.STARTUP_TIMESTAMP, 0, "add scan.startup.timestamp.millis = '1764410400000' (epoch milliseconds)");
            }
        }
        int partitions;
        try {
            partitions = context.admin().describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic).partitions().size();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SqlError.internal("interrupted while looking up topic " + topic, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException) {
                throw SqlError.at(SqlState.UNDEFINED_OBJECT, "topic \"" + topic + "\" does not exist", 0,
                    "create the topic first, or check its name: a source reads a topic others write");
            }
            throw SqlError.of(SqlState.UNDEFINED_OBJECT, "topic \"" + topic + "\" cannot be read: "
                + e.getCause().getMessage());
        } catch (TimeoutException e) {
            throw SqlError.of(SqlState.UNDEFINED_OBJECT, "topic \"" + topic + "\" cannot be read: the cluster did not "
                + "answer within 30 s");
        }
        Map<String, String> formatOptions = new java.util.TreeMap<>();
        options.forEach((key, value) -> {
            if (key.startsWith(SourceRecordDecoder.SCHEMA_REGISTRY) || key.equals(SourceRecordDecoder.CSV_DELIMITER)
                || key.equals(SourceRecordDecoder.KEY_FORMAT) || key.equals(SourceRecordDecoder.KEY_IS_PRIMARY_KEY)
                || key.equals(SourceRecordDecoder.MAX_RECORD_BYTES) || key.startsWith("scan.startup.")) {
                formatOptions.put(key, value);
            }
        });
        try {
            SourceRecordDecoder.maxRecordBytes(formatOptions);
        } catch (IllegalArgumentException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, e.getMessage());
        }
        if (format.equals("avro") && !formatOptions.containsKey(SourceRecordDecoder.SCHEMA_REGISTRY)) {
            throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "an avro source needs a Schema Registry", 0,
                "add schema.registry = 'http://registry:8081' to WITH (...)");
        }
        RowSchema value = format.equals("avro") && statement.columns().isEmpty()
            ? AvroSourceSchemas.fromRegistry(topic, options) : schema(statement, text);
        if (format.equals("debezium-json") && value.appendOnly()) {
            throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, "a debezium-json source needs a primary key", 0,
                "declare the table's key, e.g. (id INT PRIMARY KEY, ...): updates and deletes find rows by it");
        }
        SourceRecordDecoder.unfitForWholeValue(value, format).ifPresent(reason -> {
            throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, reason, 0, format.equals("string")
                ? "e.g. CREATE SOURCE lines (line TEXT) WITH (connector = 'kafka', topic = '...', format = 'string')"
                : "e.g. CREATE SOURCE payloads (payload BYTEA) WITH (connector = 'kafka', topic = '...', format = 'bytes')");
        });
        List<Column> columns = new ArrayList<>(value.columns());
        for (IncludedColumns.Included included : included(statement, text, value)) {
            columns.add(included.asColumn());
            formatOptions.put(included.optionKey(), included.column());
        }
        RowSchema schema = new RowSchema(columns, value.keyColumns());
        try {
            // Reads nothing; it refuses options it could not read records with (key.format, say) now, not when a view runs.
            new SourceRecordDecoder(schema, format, formatOptions);
        } catch (IllegalArgumentException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, e.getMessage());
        }
        List<Column> key = schema.appendOnly() ? Relation.RECORD_POSITION
            : schema.keyColumns().stream().map(column -> schema.column(column).orElseThrow()).toList();
        String deadLetters = TopicNames.of("source", name, "dlq-" + context.store().allocateJobId());
        createTopic(deadLetters, Math.min(partitions, context.topicPartitions()), false);
        Relation relation = new Relation(name, schema, key, topic, format, deadLetters, formatOptions);
        createOrUndo(CatalogService.entry(relation, ObjectKind.SOURCE, ObjectStatus.CREATED,
            SqlCompiler.normalize(statement), 0), deadLetters);
        return new StatementResult.Command(SqlObjectKind.SOURCE.createTag());
    }

    /** The columns a source's INCLUDE clauses add after the value's, checked: each part once, no name twice. */
    private static List<IncludedColumns.Included> included(SqlCreateRelation statement, String text, RowSchema value) {
        List<IncludedColumns.Included> included = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>(value.columns().stream().map(Column::name).toList());
        java.util.Set<String> parts = new java.util.HashSet<>();
        for (SourceInclude include : statement.includes()) {
            IncludedColumns.Part part = IncludedColumns.Part.of(include.what()).orElseThrow(() -> SqlError.at(
                SqlState.SYNTAX_ERROR, "a source cannot INCLUDE " + include.what(), offset(text, include),
                "INCLUDE timestamp, partition, offset, key or header 'name', each with an optional AS column"));
            if ((part == IncludedColumns.Part.HEADER) != (include.header() != null)) {
                throw SqlError.at(SqlState.SYNTAX_ERROR, part == IncludedColumns.Part.HEADER
                    ? "INCLUDE header needs the header's name" : "only a header has a name after INCLUDE",
                    offset(text, include), "e.g. INCLUDE header 'trace_id' AS trace_id");
            }
            String column = include.column() != null ? include.column()
                : IncludedColumns.Included.defaultColumn(part, include.header());
            IncludedColumns.Included next = new IncludedColumns.Included(part, include.header(), column);
            if (!parts.add(next.optionKey())) {
                throw SqlError.at(SqlState.SYNTAX_ERROR, "INCLUDE " + include.what()
                    + (include.header() == null ? "" : " '" + include.header() + "'") + " appears twice",
                    offset(text, include), null);
            }
            if (!names.add(column)) {
                throw SqlError.at(SqlState.DUPLICATE_OBJECT, "column \"" + column + "\" specified more than once",
                    offset(text, include), "name the included column with AS");
            }
            included.add(next);
        }
        return included;
    }

    private static int offset(String text, SourceInclude include) {
        return io.kafkamv.compiler.error.CompileException.positionOf(text, include.pos());
    }

    /** Creates the entry; when a create of the same name on another instance came first, deletes the topic made for it. */
    private void createOrUndo(CatalogEntry entry, String ownTopic) {
        if (!context.store().create(entry)) {
            context.admin().deleteTopics(List.of(ownTopic));
            throw SqlError.of(SqlState.DUPLICATE_TABLE, "relation \"" + entry.name() + "\" already exists");
        }
    }

    /** {@code numeric(10, 2)}'s precision and scale; null for a plain {@code numeric} and every other type. */
    private static NumericTypmod typmod(SqlType type, SqlDataTypeSpec spec, String text) {
        if (type != SqlType.DECIMAL || !(spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic)
            || basic.getPrecision() < 0) {
            return null;
        }
        try {
            return new NumericTypmod(basic.getPrecision(), Math.max(basic.getScale(), 0));
        } catch (IllegalArgumentException e) {
            throw SqlError.at(SqlState.INVALID_PARAMETER_VALUE, e.getMessage(),
                io.kafkamv.compiler.error.CompileException.positionOf(text, spec.getParserPosition()), null);
        }
    }

    private static RowSchema schema(SqlCreateRelation statement, String text) {
        if (statement.columns().isEmpty()) {
            throw SqlError.of(SqlState.SYNTAX_ERROR, "a table needs at least one column");
        }
        List<Column> columns = new ArrayList<>();
        for (SqlNode node : statement.columns()) {
            SqlColumnDeclaration declaration = (SqlColumnDeclaration) node;
            String typeName = declaration.dataType.getTypeName().getSimple();
            SqlType type = SqlType.fromName(typeName).orElseThrow(() -> SqlError.at(SqlState.UNDEFINED_OBJECT,
                "type \"" + typeName.toLowerCase(java.util.Locale.ROOT) + "\" does not exist",
                io.kafkamv.compiler.error.CompileException.positionOf(text, declaration.dataType.getParserPosition()),
                "supported types: boolean, smallint, int, bigint, real, double precision, numeric, varchar, text, "
                    + "date, time, timestamp, timestamptz, interval, bytea, jsonb"));
            boolean nullable = !Boolean.FALSE.equals(declaration.dataType.getNullable());
            columns.add(new Column(declaration.name.getSimple(), type, nullable, typmod(type, declaration.dataType, text)));
        }
        List<String> key = statement.primaryKey().stream().map(node -> ((SqlIdentifier) node).getSimple()).toList();
        try {
            RowSchema schema = new RowSchema(columns, key);
            // Key columns are never null, whatever the declaration says.
            List<Column> withKeys = schema.columns().stream()
                .map(column -> key.contains(column.name()) ? column.withNullable(false) : column)
                .toList();
            return new RowSchema(withKeys, key);
        } catch (IllegalArgumentException e) {
            throw SqlError.of(SqlState.SYNTAX_ERROR, e.getMessage());
        }
    }

    private int partitions(Map<String, String> options) {
        String value = options.getOrDefault("partitions", String.valueOf(context.topicPartitions()));
        try {
            int partitions = Integer.parseInt(value);
            if (partitions < 1) {
                throw new NumberFormatException();
            }
            return partitions;
        } catch (NumberFormatException e) {
            throw SqlError.of(SqlState.INVALID_PARAMETER_VALUE, "partitions must be a positive integer, not " + value);
        }
    }

    void createTopic(String topic, int partitions, boolean compacted) {
        try {
            newTopics.create(topic, partitions, compacted);
        } catch (KafkaException e) {
            throw SqlError.internal(e.getMessage(), e);
        }
    }

    /** Creates the topic unless it exists, e.g. a sink's topic that its readers made first. */
    void ensureTopic(String topic, int partitions, boolean compacted) {
        try {
            newTopics.ensure(topic, partitions, compacted);
        } catch (KafkaException e) {
            throw SqlError.internal(e.getMessage(), e);
        }
    }

    /** Drops a table with its topic, or a source with its dead-letter topic (never the topic it reads). */
    StatementResult drop(CatalogEntry entry) {
        Relation table = CatalogService.relation(entry);
        String owned = entry.kind() == ObjectKind.SOURCE ? table.deadLetterTopic() : table.topic();
        try {
            // Views of it dropped a moment ago may still be closing here (nothing that reads it is left in the catalog).
            if (!context.runner().awaitNoReaders(table.topic(), java.time.Duration.ofSeconds(30))) {
                LOG.warn("Dropping {} while a dropped view of it still closes here", entry.name());
            }
            context.admin().deleteTopics(List.of(owned)).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SqlError.internal("interrupted while deleting topic " + owned, e);
        } catch (ExecutionException | TimeoutException e) {
            throw SqlError.internal("cannot delete topic " + owned + ": " + e.getMessage(), e);
        }
        if (entry.kind() == ObjectKind.SOURCE) {
            // Before the name is free: a source made later under it must not be held by this one's limit. Written
            // whether or not this instance has read one yet: another instance may have set it a moment ago.
            context.store().setSourceRateLimit(entry.name(), null);
        }
        context.store().removeObject(entry.name());
        return new StatementResult.Command(SqlObjectKind.valueOf(entry.kind().name()).dropTag());
    }
}
