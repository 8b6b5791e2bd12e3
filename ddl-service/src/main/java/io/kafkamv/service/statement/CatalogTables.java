package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.functions.SystemFunctions;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.query.QueryEngine;
import io.kafkamv.service.result.PgType;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;

/**
 * A small {@code information_schema} and {@code pg_catalog} over kafka-mv's tables and views, as
 * ordinary tables any query can read and join: {@code SELECT table_name FROM information_schema.tables}.
 * (psql's and pgjdbc's own catalog queries use functions and casts Calcite lacks; {@link PsqlCatalog}
 * answers those.) An object's oid is its place in {@link #relations}, the same for both.
 */
public final class CatalogTables {

    static final long FIRST_OID = 16384;
    static final long PUBLIC_NAMESPACE = 2200;

    private final CatalogService catalog;

    public CatalogTables(CatalogService catalog) {
        this.catalog = catalog;
    }

    /** Created tables and views in name order: an object's oid is {@link #FIRST_OID} plus its place here. */
    static List<CatalogEntry> relations(CatalogService catalog) {
        return catalog.store().objects().stream()
            .filter(CatalogEntry::visible)
            .filter(entry -> entry.kind() == ObjectKind.TABLE || entry.kind() == ObjectKind.MATERIALIZED_VIEW)
            .sorted(Comparator.comparing(CatalogEntry::name))
            .toList();
    }

    static String relkind(CatalogEntry entry) {
        return entry.kind() == ObjectKind.TABLE ? "r" : "m";
    }

    /** Adds the two schemas to a query's root schema; their rows are read when the query runs. */
    public void addTo(SchemaPlus root) {
        SchemaPlus information = root.add("information_schema", new AbstractSchema());
        add(information, "tables", this::tables, text("table_catalog"), text("table_schema"), text("table_name"),
            text("table_type"));
        add(information, "columns", this::columns, text("table_catalog"), text("table_schema"), text("table_name"),
            text("column_name"), Column.of("ordinal_position", SqlType.INTEGER), text("is_nullable"), text("data_type"));
        SchemaPlus pg = root.add("pg_catalog", new AbstractSchema());
        pg.add("version", ScalarFunctionImpl.create(SystemFunctions.class, "version"));
        // pg_catalog is on every search_path, first: clients read its tables without the schema (SQLAlchemy does).
        for (SchemaPlus schema : List.of(pg, root)) {
            add(schema, "pg_namespace", () -> List.<Object[]>of(new Object[] {PUBLIC_NAMESPACE, "public"}),
                Column.of("oid", SqlType.BIGINT), text("nspname"));
            add(schema, "pg_class", this::classes, Column.of("oid", SqlType.BIGINT), text("relname"),
                Column.of("relnamespace", SqlType.BIGINT), text("relkind"));
            add(schema, "pg_attribute", this::attributes, Column.of("attrelid", SqlType.BIGINT), text("attname"),
                Column.of("atttypid", SqlType.BIGINT), Column.of("attnum", SqlType.SMALLINT),
                Column.of("attnotnull", SqlType.BOOLEAN));
            add(schema, "pg_type", CatalogTables::types, Column.of("oid", SqlType.BIGINT), text("typname"),
                Column.of("typlen", SqlType.SMALLINT));
        }
    }

    private static void add(SchemaPlus schema, String name, Supplier<List<Object[]>> rows, Column... columns) {
        Relation relation = new Relation(name, RowSchema.of(columns), List.of(), "catalog");
        schema.add(name, QueryEngine.table(relation, rows));
    }

    private static Column text(String name) {
        return Column.of(name, SqlType.VARCHAR);
    }

    private List<Object[]> tables() {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry entry : relations(catalog)) {
            rows.add(new Object[] {"dev", "public", entry.name(),
                entry.kind() == ObjectKind.TABLE ? "BASE TABLE" : "MATERIALIZED VIEW"});
        }
        return rows;
    }

    private List<Object[]> columns() {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogEntry entry : relations(catalog)) {
            List<Column> columns = CatalogService.relation(entry).schema().columns();
            for (int i = 0; i < columns.size(); i++) {
                Column column = columns.get(i);
                rows.add(new Object[] {"dev", "public", entry.name(), column.name(), i + 1, column.nullable() ? "YES" : "NO",
                    column.type().postgresName()});
            }
        }
        return rows;
    }

    private List<Object[]> classes() {
        List<Object[]> rows = new ArrayList<>();
        List<CatalogEntry> relations = relations(catalog);
        for (int i = 0; i < relations.size(); i++) {
            rows.add(new Object[] {FIRST_OID + i, relations.get(i).name(), PUBLIC_NAMESPACE, relkind(relations.get(i))});
        }
        return rows;
    }

    private List<Object[]> attributes() {
        List<Object[]> rows = new ArrayList<>();
        List<CatalogEntry> relations = relations(catalog);
        for (int i = 0; i < relations.size(); i++) {
            List<Column> columns = CatalogService.relation(relations.get(i)).schema().columns();
            for (int j = 0; j < columns.size(); j++) {
                Column column = columns.get(j);
                rows.add(new Object[] {FIRST_OID + i, column.name(), (long) PgType.of(column.type()).oid(), (short) (j + 1),
                    !column.nullable()});
            }
        }
        return rows;
    }

    private static List<Object[]> types() {
        List<Object[]> rows = new ArrayList<>();
        for (PgType type : PgType.values()) {
            rows.add(new Object[] {(long) type.oid(), type.name().toLowerCase(Locale.ROOT), (short) type.size()});
        }
        return rows;
    }
}
