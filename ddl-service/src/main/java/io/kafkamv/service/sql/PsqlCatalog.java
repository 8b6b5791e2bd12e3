package io.kafkamv.service.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.compiler.Relation;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.catalog.CatalogService;

/**
 * Answers the catalog queries psql sends for {@code \d}, {@code \dt}, {@code \dm}, {@code \d name}
 * and {@code \l}, from our catalog. These queries use PostgreSQL's system tables and operators
 * that kafka-mv does not have; each is recognised by what it reads and answered with the columns
 * it selects, in its order. A catalog query we do not model gets its columns and no rows, so psql
 * shows an empty section rather than failing.
 */
final class PsqlCatalog {

    private static final Pattern RELKINDS = Pattern.compile("c\\.relkind\\s+IN\\s*\\(([^)]*)\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern NAME_PATTERN = Pattern.compile(
        "c\\.relname\\s+OPERATOR\\(pg_catalog\\.~\\)\\s+'\\^\\(([^)]*)\\)\\$'", Pattern.CASE_INSENSITIVE);
    private static final Pattern OID = Pattern.compile("\\.?(?:oid|attrelid|indrelid|polrelid|stxrelid|inhrelid|"
        + "inhparent|prrelid|conrelid|tgrelid|ev_class|classoid)\\s*=\\s*'(\\d+)'", Pattern.CASE_INSENSITIVE);
    private static final long FIRST_OID = 16384;

    private final CatalogService catalog;

    PsqlCatalog(CatalogService catalog) {
        this.catalog = catalog;
    }

    static boolean isCatalogQuery(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        return lower.contains("pg_catalog.") && lower.stripLeading().startsWith("select");
    }

    StatementResult answer(String sql) {
        List<String> items = SelectList.items(sql);
        List<ResultColumn> columns = items.stream()
            .map(item -> new ResultColumn(SelectList.name(item), SelectList.isNumeric(item) ? SqlType.BIGINT : SqlType.VARCHAR))
            .toList();
        String lower = sql.toLowerCase(Locale.ROOT);
        List<List<Object>> rows = new ArrayList<>();
        if (lower.contains("from pg_catalog.pg_database")) {
            rows.add(values(items, Map.of("datname", "dev", "owner", "root", "encoding", "UTF8", "collate", "C",
                "ctype", "C", "provider", "libc")));
        } else if (lower.contains("from pg_catalog.pg_attribute a")) {
            relationByOid(sql).ifPresent(entry -> attributes(entry, items, rows));
        } else if (lower.contains("from pg_catalog.pg_class c") && lower.contains("as \"schema\"")) {
            listing(sql, items, rows);
        } else if (lower.contains("from pg_catalog.pg_class c") && NAME_PATTERN.matcher(sql).find()) {
            matching(sql, items, rows);
        } else if (lower.contains("from pg_catalog.pg_class c") && lower.contains("c.relchecks")) {
            relationByOid(sql).ifPresent(entry -> rows.add(values(items, Map.of("relkind", relkind(entry),
                "relpersistence", "p", "relreplident", "d"))));
        }
        return new StatementResult.Rows(columns, rows, "SELECT " + rows.size());
    }

    /** {@code \d}, {@code \dt}, {@code \dm}: one row per object of the kinds asked for. */
    private void listing(String sql, List<String> items, List<List<Object>> rows) {
        Matcher kinds = RELKINDS.matcher(sql);
        String wanted = kinds.find() ? kinds.group(1) : "'r','m'";
        Optional<Pattern> name = namePattern(sql);
        objects().stream()
            .filter(entry -> wanted.contains("'" + relkind(entry) + "'"))
            .filter(entry -> name.map(pattern -> pattern.matcher(entry.name()).matches()).orElse(true))
            .forEach(entry -> rows.add(values(items, Map.of("nspname", "public", "relname", entry.name(),
                "type", entry.kind() == ObjectKind.TABLE ? "table" : "materialized view", "owner", "root"))));
    }

    /** The first query of {@code \d name}: which objects the pattern names, with their oids. */
    private void matching(String sql, List<String> items, List<List<Object>> rows) {
        Pattern pattern = namePattern(sql).orElseThrow();
        List<CatalogEntry> objects = objects();
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
            values.put("format_type", column.type().postgresName());
            values.put("attnotnull", column.nullable() ? "f" : "t");
            values.put("attidentity", "");
            values.put("attgenerated", "");
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
        List<CatalogEntry> objects = objects();
        return index >= 0 && index < objects.size() ? Optional.of(objects.get(index)) : Optional.empty();
    }

    /** Created tables and views in name order: an object's oid is its place in this list. */
    private List<CatalogEntry> objects() {
        return catalog.store().objects().stream()
            .filter(CatalogEntry::visible)
            .filter(entry -> entry.kind() == ObjectKind.TABLE || entry.kind() == ObjectKind.MATERIALIZED_VIEW)
            .sorted(Comparator.comparing(CatalogEntry::name))
            .toList();
    }

    private static String relkind(CatalogEntry entry) {
        return entry.kind() == ObjectKind.TABLE ? "r" : "m";
    }

    private static Optional<Pattern> namePattern(String sql) {
        Matcher matcher = NAME_PATTERN.matcher(sql);
        return matcher.find() ? Optional.of(Pattern.compile(matcher.group(1))) : Optional.empty();
    }

    /**
     * A row for the select list: each item gets the value whose key it mentions (e.g. an item
     * reading {@code c.relname} gets "relname"), a literal gets itself, anything else false or null.
     */
    private static List<Object> values(List<String> items, Map<String, Object> known) {
        List<Object> row = new ArrayList<>();
        for (String item : items) {
            String lower = item.toLowerCase(Locale.ROOT);
            Object value = null;
            boolean found = false;
            for (Map.Entry<String, Object> entry : known.entrySet()) {
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
            row.add(value);
        }
        return Arrays.asList(row.toArray());
    }
}
