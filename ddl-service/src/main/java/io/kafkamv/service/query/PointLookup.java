package io.kafkamv.service.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;

/**
 * Serves {@code SELECT columns FROM relation WHERE column = value [AND ...]} straight from state
 * stores: a view's row by its key, or the rows an index on the relation keeps for the values of its
 * columns, instead of planning, compiling and scanning. Anything else (other filters, expressions,
 * joins, types whose stored form differs from what clients see) goes the general way, through Calcite.
 */
public final class PointLookup {

    /** Types stored as clients see them, so a looked-up value needs no conversion. */
    private static final Set<SqlType> PLAIN = EnumSet.of(SqlType.BOOLEAN, SqlType.SMALLINT, SqlType.INTEGER,
        SqlType.BIGINT, SqlType.REAL, SqlType.DOUBLE, SqlType.DECIMAL, SqlType.VARCHAR, SqlType.JSONB);

    /** Reads one row of a view by key, on whichever instance holds it. */
    @FunctionalInterface
    public interface KeyReader {
        Optional<Optional<Object[]>> get(CatalogEntry view, Object[] key);
    }

    /** Reads the rows an index keeps for some values of its columns; empty when it cannot now. */
    @FunctionalInterface
    public interface IndexReader {
        Optional<List<Object[]>> rows(CatalogEntry index, Object[] values);
    }

    private final CatalogService catalog;
    private final KeyReader reader;
    private final IndexReader indexes;

    PointLookup(CatalogService catalog, KeyReader reader, IndexReader indexes) {
        this.catalog = catalog;
        this.reader = reader;
        this.indexes = indexes;
    }

    /** The answer, or empty when the query is not a point lookup this class can serve. */
    Optional<StatementResult.Rows> tryAnswer(SqlNode query) {
        if (!(query instanceof SqlSelect select) || select.getGroup() != null || select.getHaving() != null
            || select.getOrderList() != null || select.getFetch() != null || select.getOffset() != null
            || select.isDistinct() || !(select.getFrom() instanceof SqlIdentifier from) || !from.isSimple()
            || select.getWhere() == null) {
            return Optional.empty();
        }
        Optional<CatalogEntry> entry = catalog.entry(from.getSimple()).filter(CatalogEntry::visible)
            .filter(candidate -> candidate.kind() == ObjectKind.MATERIALIZED_VIEW || candidate.kind() == ObjectKind.TABLE
                || candidate.kind() == ObjectKind.SOURCE);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        Relation relation = CatalogService.relation(entry.get());
        Map<String, Object> equalities = new HashMap<>();
        List<Integer> projection = projection(select, relation);
        if (!equalities(select.getWhere(), relation, equalities) || projection == null) {
            return Optional.empty();
        }
        Optional<List<Object[]>> found = entry.get().kind() == ObjectKind.MATERIALIZED_VIEW
            ? byKey(entry.get(), relation, equalities) : Optional.empty();
        if (found.isEmpty()) {
            found = byIndex(relation, equalities);
        }
        List<ResultColumn> columns = projection.stream()
            .map(index -> new ResultColumn(relation.schema().columns().get(index).name(),
                relation.schema().columns().get(index).type()))
            .toList();
        return found.map(rows -> new StatementResult.Rows(columns, rows.stream()
            .map(values -> Arrays.asList(projection.stream().map(index -> values[index]).toArray()))
            .toList()));
    }

    /** The view's row with the key the equalities give, when they name exactly the key's columns. */
    private Optional<List<Object[]>> byKey(CatalogEntry entry, Relation view, Map<String, Object> equalities) {
        if (equalities.size() != view.key().size()) {
            return Optional.empty();
        }
        Object[] key = new Object[view.key().size()];
        for (int i = 0; i < key.length; i++) {
            Column column = view.key().get(i);
            if (!equalities.containsKey(column.name())) {
                return Optional.empty();
            }
            key[i] = equalities.get(column.name());
        }
        return reader.get(entry, key).map(row -> row.<List<Object[]>>map(java.util.Collections::singletonList).orElse(List.of()));
    }

    /** The rows an index on the relation finds for the equalities on its columns, then filtered by the others. */
    private Optional<List<Object[]>> byIndex(Relation relation, Map<String, Object> equalities) {
        for (CatalogEntry index : catalog.entries(ObjectKind.INDEX)) {
            if (!index.visible() || !relation.name().equals(index.definition().path("on").asText())) {
                continue;
            }
            List<String> columns = new ArrayList<>();
            index.definition().path("columns").forEach(column -> columns.add(column.asText()));
            if (!equalities.keySet().containsAll(columns)) {
                continue;
            }
            Object[] values = columns.stream().map(equalities::get).toArray();
            return indexes.rows(index, values).map(rows -> rows.stream()
                .filter(row -> equalities.entrySet().stream().allMatch(equality -> java.util.Objects.equals(
                    row[relation.schema().columns().indexOf(relation.schema().column(equality.getKey()).orElseThrow())],
                    equality.getValue())))
                .toList());
        }
        return Optional.empty();
    }

    /** Column positions for the select list: plain column names or {@code *}; null for anything else. */
    private static List<Integer> projection(SqlSelect select, Relation view) {
        List<Integer> positions = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            if (!(item instanceof SqlIdentifier identifier)) {
                return null;
            }
            if (identifier.isStar()) {
                for (int i = 0; i < view.schema().columns().size(); i++) {
                    positions.add(i);
                }
                continue;
            }
            String name = identifier.names.get(identifier.names.size() - 1);
            Optional<Column> column = view.schema().column(name);
            if (column.isEmpty() || !PLAIN.contains(column.get().type())) {
                return null;
            }
            positions.add(view.schema().columns().indexOf(column.get()));
        }
        for (int position : positions) {
            if (!PLAIN.contains(view.schema().columns().get(position).type())) {
                return null;
            }
        }
        return positions;
    }

    /** Collects {@code column = literal} terms of an AND; false if the condition has anything else. */
    private static boolean equalities(SqlNode condition, Relation view, Map<String, Object> into) {
        if (!(condition instanceof SqlBasicCall call)) {
            return false;
        }
        if (call.getKind() == SqlKind.AND) {
            return call.getOperandList().stream().allMatch(operand -> equalities(operand, view, into));
        }
        if (call.getKind() != SqlKind.EQUALS) {
            return false;
        }
        SqlNode left = call.operand(0);
        SqlNode right = call.operand(1);
        if (left instanceof SqlLiteral && right instanceof SqlIdentifier) {
            SqlNode swap = left;
            left = right;
            right = swap;
        }
        if (!(left instanceof SqlIdentifier identifier) || !(right instanceof SqlLiteral literal)) {
            return false;
        }
        String name = identifier.names.get(identifier.names.size() - 1);
        Optional<Column> column = view.schema().column(name);
        if (column.isEmpty()) {
            return false;
        }
        Object value = value(literal, column.get().type());
        if (value == null) {
            return false;
        }
        into.put(name, value);
        return true;
    }

    private static Object value(SqlLiteral literal, SqlType type) {
        try {
            return switch (type) {
                case SMALLINT -> literal instanceof SqlNumericLiteral ? literal.bigDecimalValue().shortValueExact() : null;
                case INTEGER -> literal instanceof SqlNumericLiteral ? literal.bigDecimalValue().intValueExact() : null;
                case BIGINT -> literal instanceof SqlNumericLiteral ? literal.bigDecimalValue().longValueExact() : null;
                case DECIMAL -> literal instanceof SqlNumericLiteral ? (Object) literal.bigDecimalValue() : null;
                case VARCHAR -> literal.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER
                    ? literal.getValueAs(String.class) : null;
                case BOOLEAN -> literal.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN
                    ? literal.booleanValue() : null;
                default -> null;
            };
        } catch (ArithmeticException notExact) {
            return null;
        }
    }
}
