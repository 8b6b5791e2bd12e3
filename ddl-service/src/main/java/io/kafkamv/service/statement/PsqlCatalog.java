package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.PgType;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;

/**
 * Answers the catalog queries psql sends for {@code \d}, {@code \dt}, {@code \dm}, {@code \d name}
 * and {@code \l}, and those of pgjdbc's {@code DatabaseMetaData.getTables} and {@code getColumns}
 * (what GUI tools list objects with), from our catalog. These queries use PostgreSQL's system tables and operators
 * that kafka-mv does not have; each is recognised by what it reads and answered with the columns
 * it selects, in its order. A catalog query we do not model gets its columns and no rows, so psql
 * shows an empty section rather than failing.
 */
final class PsqlCatalog {

    private static final Pattern RELKINDS = Pattern.compile("c\\.relkind\\s+IN\\s*\\(([^)]*)\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern NAME_PATTERN = Pattern.compile(
        "c\\.relname\\s+OPERATOR\\(pg_catalog\\.~\\)\\s+'\\^\\(([^)]*)\\)\\$'", Pattern.CASE_INSENSITIVE);
    private static final Pattern OID = Pattern.compile("\\.?(?:oid|attrelid|indrelid|polrelid|stxrelid|inhrelid|"
        + "inhparent|prrelid|conrelid|tgrelid|ev_class|classoid)\\s*=\\s*'?(\\d+)'?", Pattern.CASE_INSENSITIVE);
    /** PostgreSQL's system tables, which clients also name without their schema (pg_catalog is on every search_path). */
    private static final Pattern SYSTEM_TABLE = Pattern.compile("\\bfrom\\s+(?:pg_catalog\\.)?pg_[a-z_]+\\b");
    /** One column of psql's {@code \gdesc} query: {@code ('name', '23'::pg_catalog.oid, -1)}. */
    private static final Pattern DESCRIBED_COLUMN = Pattern.compile("\\('((?:[^']|'')*)',\\s*'(\\d+)'::pg_catalog\\.oid,\\s*(-?\\d+)\\)");
    private static final Pattern RELNAME = Pattern.compile("(?:c\\.)?relname\\s*=\\s*'((?:[^']|'')*)'", Pattern.CASE_INSENSITIVE);
    /** Result columns clients read as booleans, which psql prints as t and f either way. */
    private static final Set<String> BOOLEANS = Set.of("attnotnull", "indisunique", "indisprimary", "visible", "nullable",
        "atthasdef", "attisdropped");
    private static final long FIRST_OID = CatalogTables.FIRST_OID;

    private final CatalogService catalog;

    PsqlCatalog(CatalogService catalog) {
        this.catalog = catalog;
    }

    static boolean isCatalogQuery(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        return lower.stripLeading().startsWith("select")
            && (lower.contains("pg_catalog.") || SYSTEM_TABLE.matcher(lower).find());
    }

    StatementResult answer(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        // pgjdbc's getColumns wraps its query in SELECT * FROM (...): the inner select list names the columns.
        int inner = lower.indexOf("select", lower.indexOf("from"));
        List<String> items = SelectList.items(lower.stripLeading().startsWith("select * from (select") && inner > 0
            ? sql.substring(inner) : sql);
        List<ResultColumn> columns = items.stream()
            .map(item -> new ResultColumn(SelectList.name(item), SelectList.isNumeric(item) ? SqlType.BIGINT
                : BOOLEANS.contains(SelectList.name(item)) ? SqlType.BOOLEAN : SqlType.VARCHAR))
            .toList();
        List<List<Object>> rows = new ArrayList<>();
        if (lower.contains("\"table_cat\"") && lower.contains("from pg_catalog.pg_namespace n, pg_catalog.pg_class c")) {
            jdbcTables(sql, items, rows);
        } else if (lower.contains("a.atttypid") && lower.contains("join pg_catalog.pg_attribute a")) {
            jdbcColumns(sql, items, rows);
        } else if (lower.contains("pg_catalog.format_type(tp, tpm)")) {
            describedColumns(sql, rows);
        } else if (lower.contains("pg_catalog.pg_table_is_visible(c.oid)") && RELNAME.matcher(sql).find()) {
            oidOf(sql, items, rows);
        } else if (lower.contains("unnest(ix.indkey)") && lower.contains("ix.indisprimary")) {
            relationByOid(sql).ifPresent(entry -> primaryKey(entry, rows));
        } else if (lower.contains("from  pg_catalog.pg_constraint r") && lower.contains("r.contype = 'p'")) {
            relationByOid(sql).filter(entry -> !CatalogService.relation(entry).schema().keyColumns().isEmpty())
                .ifPresent(entry -> rows.add(List.of(entry.name() + "_pkey")));
        } else if (lower.contains("from pg_catalog.pg_database")) {
            rows.add(values(items, Map.of("datname", "dev", "owner", "root", "encoding", "UTF8", "collate", "C",
                "ctype", "C", "provider", "libc")));
        } else if (lower.contains("from pg_catalog.pg_attribute a")) {
            relationByOid(sql).ifPresent(entry -> attributes(entry, items, rows));
        } else if (lower.contains("from pg_catalog.pg_class c") && lower.contains("as \"schema\"")) {
            listing(sql, items, rows);
        } else if (lower.contains("from pg_catalog.pg_class c") && NAME_PATTERN.matcher(sql).find()) {
            matching(sql, items, rows);
        } else if (lower.contains("from pg_catalog.pg_class c") && lower.contains("c.relchecks")) {
            relationByOid(sql).ifPresent(entry -> rows.add(values(items, Map.of("relkind", CatalogTables.relkind(entry),
                "relpersistence", "p", "relreplident", "d"))));
        }
        return new StatementResult.Rows(columns, rows, "SELECT " + rows.size());
    }

    /** psql's {@code \gdesc}: the name and type of each column of the query it described, which it sends back. */
    private static void describedColumns(String sql, List<List<Object>> rows) {
        Matcher column = DESCRIBED_COLUMN.matcher(sql);
        while (column.find()) {
            long oid = Long.parseLong(column.group(2));
            String type = Arrays.stream(SqlType.values()).filter(candidate -> PgType.of(candidate).oid() == oid)
                .map(SqlType::postgresName).findFirst().orElse("unknown");
            rows.add(List.of(column.group(1).replace("''", "'"), type));
        }
    }

    /** SQLAlchemy's {@code has_table} and reflection: the oid of the visible relation of that name. */
    private void oidOf(String sql, List<String> items, List<List<Object>> rows) {
        Matcher name = RELNAME.matcher(sql);
        name.find();
        String relname = name.group(1).replace("''", "'");
        List<CatalogEntry> relations = CatalogTables.relations(catalog);
        for (int i = 0; i < relations.size(); i++) {
            if (relations.get(i).name().equals(relname)) {
                rows.add(values(items, Map.of("oid", FIRST_OID + i, "relname", relname)));
            }
        }
    }

    /** The names of the primary key's columns, in key order (SQLAlchemy's {@code get_pk_constraint}). */
    private static void primaryKey(CatalogEntry entry, List<List<Object>> rows) {
        CatalogService.relation(entry).schema().keyColumns().forEach(column -> rows.add(List.of(column)));
    }

    /** {@code \d}, {@code \dt}, {@code \dm}: one row per object of the kinds asked for. */
    private void listing(String sql, List<String> items, List<List<Object>> rows) {
        Matcher kinds = RELKINDS.matcher(sql);
        String wanted = kinds.find() ? kinds.group(1) : "'r','m'";
        Optional<Pattern> name = namePattern(sql);
        CatalogTables.relations(catalog).stream()
            .filter(entry -> wanted.contains("'" + CatalogTables.relkind(entry) + "'"))
            .filter(entry -> name.map(pattern -> pattern.matcher(entry.name()).matches()).orElse(true))
            .forEach(entry -> rows.add(values(items, Map.of("nspname", "public", "relname", entry.name(),
                "type", entry.kind() == ObjectKind.TABLE ? "table" : "materialized view", "owner", "root"))));
    }

    /** pgjdbc's {@code getTables}: the objects of the kinds asked for whose names match its LIKE pattern. */
    private void jdbcTables(String sql, List<String> items, List<List<Object>> rows) {
        // The kinds asked for are in the WHERE clause; the select list's CASE names every kind.
        String lower = sql.toLowerCase(Locale.ROOT);
        String where = lower.substring(Math.max(0, lower.indexOf(" where ")));
        boolean anyKind = !where.contains("c.relkind");
        boolean tables = anyKind || where.contains("c.relkind in ('r','p')") || where.contains("c.relkind = 'r'");
        boolean views = anyKind || where.contains("c.relkind = 'm'");
        Optional<Pattern> name = likePattern(sql, "c.relname");
        boolean publicSchema = likePattern(sql, "n.nspname").map(pattern -> pattern.matcher("public").matches()).orElse(true);
        CatalogTables.relations(catalog).stream()
            .filter(entry -> publicSchema && (entry.kind() == ObjectKind.TABLE ? tables : views))
            .filter(entry -> name.map(pattern -> pattern.matcher(entry.name()).matches()).orElse(true))
            .sorted(Comparator.comparing((CatalogEntry entry) -> entry.kind() == ObjectKind.TABLE ? "TABLE" : "MATERIALIZED VIEW")
                .thenComparing(CatalogEntry::name))
            .forEach(entry -> {
                Map<String, Object> values = new TreeMap<>();
                values.put("table_cat", "dev");
                values.put("table_schem", "public");
                values.put("table_name", entry.name());
                values.put("table_type", entry.kind() == ObjectKind.TABLE ? "TABLE" : "MATERIALIZED VIEW");
                values.put("remarks", null);
                rows.add(values(items, values));
            });
    }

    /**
     * pgjdbc's {@code getColumns}: the columns of the matching objects, as {@code pg_attribute} and
     * {@code pg_type} would describe them (pgjdbc maps the type OIDs to JDBC types itself).
     */
    private void jdbcColumns(String sql, List<String> items, List<List<Object>> rows) {
        Optional<Pattern> table = likePattern(sql, "c.relname");
        Optional<Pattern> column = likePattern(sql, "attname");
        for (CatalogEntry entry : CatalogTables.relations(catalog)) {
            if (table.isPresent() && !table.get().matcher(entry.name()).matches()) {
                continue;
            }
            List<Column> columns = CatalogService.relation(entry).schema().columns();
            for (int i = 0; i < columns.size(); i++) {
                Column attribute = columns.get(i);
                if (column.isPresent() && !column.get().matcher(attribute.name()).matches()) {
                    continue;
                }
                PgType type = PgType.of(attribute.type());
                // TreeMap: "attnotnull" must win over "typtype", which its item also mentions.
                Map<String, Object> values = new TreeMap<>();
                values.put("adsrc", null);
                values.put("attgenerated", "");
                values.put("attidentity", "");
                values.put("attlen", (long) type.size());
                values.put("attname", attribute.name());
                values.put("attnotnull", attribute.nullable() ? "f" : "t");
                values.put("attnum", (long) i + 1);
                values.put("atttypid", (long) type.oid());
                values.put("atttypmod", (long) attribute.typmod());
                values.put("description", null);
                values.put("nspname", "public");
                values.put("relname", entry.name());
                values.put("typbasetype", 0L);
                values.put("typtype", "b");
                values.put("typtypmod", -1L);
                rows.add(values(items, values));
            }
        }
    }

    /** A condition {@code column LIKE 'pattern'} (or {@code E'pattern'}) as a regular expression. */
    private static Optional<Pattern> likePattern(String sql, String column) {
        Matcher like = Pattern.compile(Pattern.quote(column) + "\\s+LIKE\\s+E?'((?:[^']|'')*)'", Pattern.CASE_INSENSITIVE)
            .matcher(sql);
        if (!like.find()) {
            return Optional.empty();
        }
        String pattern = like.group(1).replace("''", "'");
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Optional.of(Pattern.compile(regex.toString()));
    }

    /** The first query of {@code \d name}: which objects the pattern names, with their oids. */
    private void matching(String sql, List<String> items, List<List<Object>> rows) {
        Pattern pattern = namePattern(sql).orElseThrow();
        List<CatalogEntry> objects = CatalogTables.relations(catalog);
        for (int i = 0; i < objects.size(); i++) {
            CatalogEntry entry = objects.get(i);
            if (pattern.matcher(entry.name()).matches()) {
                rows.add(values(items, Map.of("oid", FIRST_OID + i, "nspname", "public", "relname", entry.name())));
            }
        }
    }

    private void attributes(CatalogEntry entry, List<String> items, List<List<Object>> rows) {
        Relation relation = CatalogService.relation(entry);
        for (Column column : relation.schema().columns()) {
            Map<String, Object> values = new TreeMap<>();
            values.put("attname", column.name());
            values.put("format_type", column.postgresTypeName());
            values.put("attnotnull", column.nullable() ? "f" : "t");
            values.put("attidentity", "");
            values.put("attgenerated", "");
            // SQLAlchemy's reflection names these; a null identity is no identity column.
            values.put("identity_options", null);
            values.put("generated", "");
            values.put("table_oid", FIRST_OID + CatalogTables.relations(catalog).indexOf(entry));
            values.put("attstorage", column.type() == SqlType.VARCHAR || column.type() == SqlType.JSONB
                || column.type() == SqlType.BYTEA || column.type() == SqlType.DECIMAL ? "x" : "p");
            rows.add(values(items, values));
        }
    }

    private Optional<CatalogEntry> relationByOid(String sql) {
        Matcher oid = OID.matcher(sql);
        if (!oid.find()) {
            return Optional.empty();
        }
        int index = (int) (Long.parseLong(oid.group(1)) - FIRST_OID);
        List<CatalogEntry> objects = CatalogTables.relations(catalog);
        return index >= 0 && index < objects.size() ? Optional.of(objects.get(index)) : Optional.empty();
    }

    private static Optional<Pattern> namePattern(String sql) {
        Matcher matcher = NAME_PATTERN.matcher(sql);
        return matcher.find() ? Optional.of(regex(matcher.group(1))) : Optional.empty();
    }

    /** A pattern psql made of what the user typed ({@code \d foo(}), refused in PostgreSQL's words. */
    private static Pattern regex(String pattern) {
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            String description = e.getDescription();
            String reason = description.startsWith("Unclosed group") || description.startsWith("Unmatched closing")
                ? "parentheses () not balanced"
                : description.startsWith("Unclosed character class") ? "brackets [] not balanced"
                : description.toLowerCase(Locale.ROOT);
            throw SqlError.of(SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression: " + reason);
        }
    }

    /**
     * A row for the select list: each item gets the value whose key it mentions (e.g. an item
     * reading {@code c.relname} gets "relname"), a literal gets itself, anything else false or null.
     */
    private static List<Object> values(List<String> items, Map<String, Object> known) {
        List<Object> row = new ArrayList<>();
        for (String item : items) {
            String lower = item.toLowerCase(Locale.ROOT);
            String name = SelectList.name(item);
            Object value = known.get(name);
            boolean found = known.containsKey(name);
            for (Map.Entry<String, Object> entry : found ? Map.<String, Object>of().entrySet() : known.entrySet()) {
                if (lower.contains(entry.getKey())) {
                    value = entry.getValue();
                    found = true;
                    break;
                }
            }
            if (!found) {
                if (lower.startsWith("'")) {
                    value = lower.substring(1, Math.max(1, lower.indexOf('\'', 1)));
                } else if (lower.matches("(c\\.)?rel(has|is|force|row).*|false.*|true.*")) {
                    value = lower.startsWith("true") ? "t" : "f";
                } else if (SelectList.isNumeric(item)) {
                    value = 0L;
                }
            }
            if (value instanceof String text && BOOLEANS.contains(SelectList.name(item))) {
                value = text.equals("t");
            }
            row.add(value);
        }
        return Arrays.asList(row.toArray());
    }
}
