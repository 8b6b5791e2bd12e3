package io.kafkamv.compiler.planner;

import java.util.Locale;
import java.util.Set;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Accepts RisingWave's form of the window table functions, {@code TUMBLE(orders, ts, INTERVAL '1'
 * MINUTE)}, besides Flink's and Calcite's {@code TUMBLE(TABLE orders, DESCRIPTOR(ts), ...)}: a bare
 * relation name becomes {@code TABLE name} and a bare column name {@code DESCRIPTOR(name)}.
 */
final class WindowFunctionSyntax extends SqlBasicVisitor<Void> {

    private static final Set<String> FUNCTIONS = Set.of("TUMBLE", "HOP");

    static void normalize(SqlNode query) {
        query.accept(new WindowFunctionSyntax());
    }

    @Override
    public Void visit(SqlCall call) {
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
}
