package io.kafkamv.compiler.planner;

import java.util.Locale;
import java.util.Set;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.postgres.SetReturningFunctions;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLambda;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSnapshot;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * What a query's parse tree needs before Calcite validates it:
 * <ul>
 * <li>RisingWave's form of the window table functions, {@code TUMBLE(orders, ts, INTERVAL '1'
 * MINUTE)}, is accepted besides Flink's and Calcite's {@code TUMBLE(TABLE orders, DESCRIPTOR(ts),
 * ...)}: a bare relation name becomes {@code TABLE name} and a bare column name
 * {@code DESCRIPTOR(name)}.
 * <li>A lambda is refused with a hint: it can only be PostgreSQL's {@code ->} read as Calcite's lambda
 * arrow, which happens directly inside a function's arguments.
 * <li>A set-returning function is refused with a hint: a view's rows come from topics, and
 * {@code generate_series} is a batch query's (see {@link SetReturningFunctions}).
 * <li>A lookup join's {@code FOR SYSTEM_TIME AS OF PROCTIME()} (RisingWave's and Flink's form) gets a period
 * Calcite can type, {@code CURRENT_TIMESTAMP}; its meaning is the planner's ({@link PlanBuilder}), and any other
 * period, or {@code PROCTIME()} anywhere else, is refused with a hint.
 * </ul>
 */
final class SyntaxRewrites extends SqlBasicVisitor<Void> {

    private static final Set<String> FUNCTIONS = Set.of("TUMBLE", "HOP");
    private static final String PROCTIME = "PROCTIME";
    static final String LOOKUP_JOIN_HINT = "join a table as it is when each row is processed with "
        + "JOIN t FOR SYSTEM_TIME AS OF PROCTIME() ON ... (see docs/sql.md, lookup joins)";

    private final String statementText;

    private SyntaxRewrites(String statementText) {
        this.statementText = statementText;
    }

    static void apply(SqlNode query, String statementText) {
        query.accept(new SyntaxRewrites(statementText));
    }

    @Override
    public Void visit(SqlCall call) {
        if (call instanceof SqlLambda lambda) {
            throw new CompileException(CompileException.Category.SYNTAX,
                "\"->\" directly inside a function's arguments is read as a lambda",
                CompileException.positionOf(statementText, lambda.getParserPosition()),
                "put the JSON access in parentheses, as in max((doc -> 'tags') ->> 0)");
        }
        if (call instanceof SqlSnapshot snapshot) {
            if (!isProctime(snapshot.getPeriod())) {
                throw new CompileException(CompileException.Category.UNSUPPORTED,
                    "FOR SYSTEM_TIME AS OF is supported with PROCTIME() only",
                    CompileException.positionOf(statementText, snapshot.getPeriod().getParserPosition()), LOOKUP_JOIN_HINT);
            }
            snapshot.setOperand(1, SqlStdOperatorTable.CURRENT_TIMESTAMP.createCall(snapshot.getPeriod().getParserPosition()));
            snapshot.getTableRef().accept(this);
            return null;
        }
        if (isProctime(call)) {
            throw new CompileException(CompileException.Category.UNSUPPORTED,
                "PROCTIME() is supported only in FOR SYSTEM_TIME AS OF PROCTIME()",
                CompileException.positionOf(statementText, call.getParserPosition()), LOOKUP_JOIN_HINT);
        }
        if (SetReturningFunctions.isSetReturning(call)) {
            throw new CompileException(CompileException.Category.UNSUPPORTED,
                call.getOperator().getName().toLowerCase(Locale.ROOT) + " is not supported in a materialized view, sink or index",
                CompileException.positionOf(statementText, call.getParserPosition()),
                "write its rows into a table once (INSERT INTO t SELECT ... FROM generate_series(1, 10)) and build on the table");
        }
        if (call.getKind() == SqlKind.COLLECTION_TABLE && call.operandCount() == 1
            && call.operand(0) instanceof SqlBasicCall function
            && FUNCTIONS.contains(function.getOperator().getName().toUpperCase(Locale.ROOT))
            && function.operandCount() >= 2) {
            if (function.operand(0) instanceof SqlIdentifier relation) {
                function.setOperand(0, SqlStdOperatorTable.EXPLICIT_TABLE.createCall(relation.getParserPosition(), relation));
            }
            if (function.operand(1) instanceof SqlIdentifier column) {
                function.setOperand(1, SqlStdOperatorTable.DESCRIPTOR.createCall(column.getParserPosition(), column));
            }
        }
        return super.visit(call);
    }

    private static boolean isProctime(SqlNode node) {
        return node instanceof SqlBasicCall call && call.operandCount() == 0
            && PROCTIME.equalsIgnoreCase(call.getOperator().getName());
    }
}
