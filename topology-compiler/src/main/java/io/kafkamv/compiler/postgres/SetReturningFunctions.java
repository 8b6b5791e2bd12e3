package io.kafkamv.compiler.postgres;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import io.kafkamv.compiler.error.CompileException;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * PostgreSQL's set-returning functions where Calcite has table functions only:
 * <ul>
 * <li>A function in FROM sees the relations before it, as if written with LATERAL:
 *     {@code FROM t, generate_series(1, t.n)}.</li>
 * <li>A set-returning function in a select list, {@code SELECT id, generate_series(1, n) FROM t}, gives a row
 *     for each of its values: it becomes a lateral function in FROM whose column the select list reads.</li>
 * </ul>
 * PostgreSQL runs several set-returning functions of one select list side by side and evaluates them after
 * GROUP BY; both are refused with a hint rather than answered differently.
 */
public final class SetReturningFunctions {

    /** The set-returning functions that are table functions here. */
    private static final Set<String> FUNCTIONS = Set.of("generate_series");

    private static final SqlOperatorTable OPERATORS = SqlOperatorTables.chain(SqlStdOperatorTable.instance(),
        SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(SqlLibrary.POSTGRESQL));

    private final String statementText;

    private SetReturningFunctions(String statementText) {
        this.statementText = statementText;
    }

    /** Rewrites every SELECT of {@code query}, in place. */
    public static void rewrite(SqlNode query, String statementText) {
        SetReturningFunctions rewrite = new SetReturningFunctions(statementText);
        query.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                super.visit(call);
                if (call instanceof SqlSelect select) {
                    rewrite.rewrite(select);
                }
                return null;
            }
        });
    }

    private void rewrite(SqlSelect select) {
        if (select.getFrom() != null) {
            select.setFrom(lateral(select.getFrom(), true));
        }
        List<SqlCall> calls = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            calls.addAll(setReturningCalls(item));
        }
        if (calls.isEmpty()) {
            return;
        }
        SqlCall call = calls.get(0);
        if (calls.size() > 1) {
            throw unsupported(calls.get(1), "more than one set-returning function in a select list is not supported",
                "call the functions in FROM, joined as you need them: FROM generate_series(1, 3) a, generate_series(1, 2) b");
        }
        if (select.getGroup() != null || select.getHaving() != null || select.getWindowList().size() > 0
            || select.getSelectList().accept(new Aggregates())) {
            throw unsupported(call, "a set-returning function in the select list of a query with aggregates is not supported",
                "aggregate in a subquery and call the function over its rows: SELECT generate_series(1, c) FROM (SELECT count(*) AS c FROM t) AS q");
        }
        SqlParserPos pos = call.getParserPosition();
        String alias = "kmv$series";
        // The parser gives a call in a select list a scalar function's category, in which no table function is found.
        SqlIdentifier name = call.getOperator().getNameAsId();
        SqlCall tableCall = new SqlUnresolvedFunction(name, null, null, null, null,
            SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION).createCall(call.getFunctionQuantifier(), pos, call.getOperandList());
        SqlNode function = SqlStdOperatorTable.AS.createCall(pos,
            SqlStdOperatorTable.LATERAL.createCall(pos, SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos, tableCall)),
            new SqlIdentifier(alias, pos));
        SqlIdentifier column = new SqlIdentifier(List.of(alias, call.getOperator().getName().toLowerCase(Locale.ROOT)), pos);
        select.setSelectList((SqlNodeList) select.getSelectList().accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall node) {
                return node == call ? column : super.visit(node);
            }
        }));
        select.setFrom(select.getFrom() == null ? function
            : new SqlJoin(pos, select.getFrom(), SqlLiteral.createBoolean(false, pos), JoinType.COMMA.symbol(pos), function,
                JoinConditionType.NONE.symbol(pos), null));
    }

    /**
     * The relation with each function in FROM made lateral, except one that comes first (it has nothing to see),
     * and a set-returning function's one column named by the function's alias, as PostgreSQL names it:
     * {@code FROM generate_series(1, 3) AS x} has a column x.
     */
    private static SqlNode lateral(SqlNode from, boolean first) {
        if (from instanceof SqlJoin join) {
            join.setLeft(lateral(join.getLeft(), first));
            join.setRight(lateral(join.getRight(), false));
            return join;
        }
        if (!(from instanceof SqlCall call)) {
            return from;
        }
        if (call.getKind() == SqlKind.COLLECTION_TABLE) {
            return first ? call : SqlStdOperatorTable.LATERAL.createCall(call.getParserPosition(), call);
        }
        if (call.getKind() != SqlKind.AS || call.operand(0).getKind() != SqlKind.COLLECTION_TABLE) {
            return from;
        }
        SqlCall table = call.operand(0);
        List<SqlNode> operands = new ArrayList<>(call.getOperandList());
        if (!first) {
            operands.set(0, SqlStdOperatorTable.LATERAL.createCall(call.getParserPosition(), table));
        }
        if (operands.size() == 2 && table.operand(0) instanceof SqlCall function && isSetReturning(function)) {
            operands.add(operands.get(1));
        }
        return SqlStdOperatorTable.AS.createCall(call.getParserPosition(), operands);
    }

    /** Whether the call is one of PostgreSQL's set-returning functions. */
    public static boolean isSetReturning(SqlCall call) {
        return call instanceof SqlBasicCall && call.getOperator().getSyntax() == SqlSyntax.FUNCTION
            && FUNCTIONS.contains(call.getOperator().getName().toLowerCase(Locale.ROOT));
    }

    /** The set-returning calls of a select item, not those of its subqueries. */
    private static List<SqlCall> setReturningCalls(SqlNode item) {
        List<SqlCall> calls = new ArrayList<>();
        item.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect) {
                    return null;
                }
                if (isSetReturning(call)) {
                    calls.add(call);
                    return null;
                }
                return super.visit(call);
            }
        });
        return calls;
    }

    /** Whether a select list calls an aggregate function (outside its subqueries), by the function's name. */
    private static final class Aggregates extends SqlBasicVisitor<Boolean> {
        @Override
        public Boolean visit(SqlCall call) {
            if (call instanceof SqlSelect) {
                return false;
            }
            if (call.getKind() == SqlKind.OVER || isAggregate(call.getOperator())) {
                return true;
            }
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null && Boolean.TRUE.equals(operand.accept(this))) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public Boolean visit(SqlNodeList list) {
            for (SqlNode node : list) {
                if (node != null && Boolean.TRUE.equals(node.accept(this))) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public Boolean visit(SqlIdentifier id) {
            return false;
        }

        @Override
        public Boolean visit(SqlLiteral literal) {
            return false;
        }

        private static boolean isAggregate(SqlOperator operator) {
            if (operator.isAggregator()) {
                return true;
            }
            List<SqlOperator> found = new ArrayList<>();
            OPERATORS.lookupOperatorOverloads(new SqlIdentifier(operator.getName().toUpperCase(Locale.ROOT), SqlParserPos.ZERO),
                SqlFunctionCategory.USER_DEFINED_FUNCTION, SqlSyntax.FUNCTION, found, SqlNameMatchers.liberal());
            return found.stream().anyMatch(SqlOperator::isAggregator);
        }
    }

    private CompileException unsupported(SqlCall call, String message, String hint) {
        return new CompileException(CompileException.Category.UNSUPPORTED, message,
            CompileException.positionOf(statementText, call.getParserPosition()), hint);
    }
}
