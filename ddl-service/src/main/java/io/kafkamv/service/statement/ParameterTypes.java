package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.service.query.QueryEngine;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;

/**
 * The types of a statement's parameters, which a client learns from the Describe of a prepared statement, as
 * PostgreSQL infers them: in a query, from where each one stands ({@code WHERE id = ?} is the type of
 * {@code id}, Calcite's validator says); in {@code INSERT ... VALUES} and {@code UPDATE ... SET}, the type of
 * the column it goes to; in the {@code WHERE} of an UPDATE or DELETE, as in a query over the table. A parameter
 * nothing says the type of is null, which a client is told is {@code text}.
 */
final class ParameterTypes {

    private ParameterTypes() {
    }

    /** One type per {@code ?} of the parsed statement, in order. */
    static List<SqlType> of(SqlNode statement, QueryEngine queries, Function<String, Relation> tables) {
        if (statement.getKind().belongsTo(SqlKind.QUERY)) {
            return queries.parameterTypes(sql(statement));
        }
        SqlType[] types = new SqlType[count(statement)];
        if (statement instanceof SqlInsert insert && insert.getTargetTable() instanceof SqlIdentifier name) {
            Relation table = tables.apply(name.getSimple());
            if (table != null && insert.getSource().getKind() == SqlKind.VALUES) {
                List<Column> targets = columns(table, insert.getTargetColumnList());
                for (SqlNode row : ((SqlCall) insert.getSource()).getOperandList()) {
                    List<SqlNode> values = ((SqlCall) row).getOperandList();
                    for (int i = 0; i < values.size() && i < targets.size(); i++) {
                        if (values.get(i) instanceof SqlDynamicParam parameter) {
                            types[parameter.getIndex()] = targets.get(i).type();
                        }
                    }
                }
            } else if (table != null) {
                fill(types, queries.parameterTypes(sql(insert.getSource())), 0);
            }
        } else if (statement instanceof SqlUpdate update && update.getTargetTable() instanceof SqlIdentifier name) {
            Relation table = tables.apply(name.getSimple());
            if (table != null) {
                List<Column> targets = columns(table, update.getTargetColumnList());
                List<SqlNode> sources = update.getSourceExpressionList();
                for (int i = 0; i < sources.size() && i < targets.size(); i++) {
                    if (sources.get(i) instanceof SqlDynamicParam parameter) {
                        types[parameter.getIndex()] = targets.get(i).type();
                    }
                }
                whereOf(types, name, update.getCondition(), queries);
            }
        } else if (statement instanceof SqlDelete delete && delete.getTargetTable() instanceof SqlIdentifier name) {
            whereOf(types, name, delete.getCondition(), queries);
        }
        return Arrays.asList(types);
    }

    /** The parameters of a WHERE typed as in {@code SELECT 1 FROM table WHERE ...}, which holds only them. */
    private static void whereOf(SqlType[] types, SqlIdentifier table, SqlNode condition, QueryEngine queries) {
        if (condition == null) {
            return;
        }
        int first = firstParameter(condition);
        if (first < 0) {
            return;
        }
        String query = "SELECT 1 FROM " + table.toSqlString(CalciteSqlDialect.DEFAULT).getSql() + " WHERE " + sql(condition);
        fill(types, queries.parameterTypes(query), first);
    }

    private static void fill(SqlType[] types, List<SqlType> found, int from) {
        for (int i = 0; i < found.size() && from + i < types.length; i++) {
            types[from + i] = found.get(i);
        }
    }

    private static List<Column> columns(Relation table, SqlNodeList names) {
        RowSchema schema = table.schema();
        if (names == null || names.isEmpty()) {
            return schema.columns();
        }
        List<Column> columns = new ArrayList<>();
        for (SqlNode node : names) {
            String name = ((SqlIdentifier) node).getSimple();
            columns.add(schema.column(name).orElse(Column.of(name, SqlType.VARCHAR)));
        }
        return columns;
    }

    private static String sql(SqlNode node) {
        return node.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    }

    private static int count(SqlNode statement) {
        int[] greatest = {-1};
        visitParameters(statement, parameter -> greatest[0] = Math.max(greatest[0], parameter.getIndex()));
        return greatest[0] + 1;
    }

    private static int firstParameter(SqlNode node) {
        int[] least = {Integer.MAX_VALUE};
        visitParameters(node, parameter -> least[0] = Math.min(least[0], parameter.getIndex()));
        return least[0] == Integer.MAX_VALUE ? -1 : least[0];
    }

    private static void visitParameters(SqlNode node, java.util.function.Consumer<SqlDynamicParam> action) {
        node.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlDynamicParam parameter) {
                action.accept(parameter);
                return null;
            }
        });
    }
}
