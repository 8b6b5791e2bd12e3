package io.kafkamv.compiler.postgres;

import java.util.Map;

import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * {@code upper} and {@code lower} map each character by itself, as PostgreSQL's do: Java's full case mapping, which
 * Calcite's use, changes the length of some text ({@code upper('ß')} was SS, {@code lower('İ')} two characters).
 */
public final class CaseMapping extends RexShuttle {

    private static final Map<SqlOperator, SqlUserDefinedFunction> BY_CHARACTER = Map.of(
        SqlStdOperatorTable.UPPER, JavaFunctions.operator("upper", CaseMapping.class, "upper"),
        SqlStdOperatorTable.LOWER, JavaFunctions.operator("lower", CaseMapping.class, "lower"));

    private final RexBuilder rexBuilder;

    public CaseMapping(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RexNode visitCall(RexCall call) {
        RexNode visited = super.visitCall(call);
        if (visited instanceof RexCall mapping && BY_CHARACTER.containsKey(mapping.getOperator())) {
            return rexBuilder.makeCall(mapping.getType(), BY_CHARACTER.get(mapping.getOperator()), mapping.getOperands());
        }
        return visited;
    }

    /** Called by the generated code. */
    @Strict
    public static String upper(String text) {
        return text.codePoints().map(Character::toUpperCase)
            .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }

    @Strict
    public static String lower(String text) {
        return text.codePoints().map(Character::toLowerCase)
            .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    }
}
