package io.kafkamv.compiler.topology;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.kafkamv.compiler.CompileException;
import io.kafkamv.compiler.plan.CalcStep;
import io.kafkamv.compiler.planner.QueryPlanner;
import io.kafkamv.compiler.types.CalciteTypes;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.schema.SchemaPlus;

/**
 * Evaluates a {@link CalcStep} on rows: the step's SQL is planned again over its input and its
 * expressions compiled to bytecode by Calcite (Janino), so every function Calcite knows works, with
 * SQL's rules for nulls. Thread-safe: the compiled code keeps no state between rows.
 */
final class CalcEvaluator {

    private final Function1<DataContext, Object[]> condition;
    private final Function1<DataContext, Object[]> projection;
    private final JavaTypeFactory typeFactory;
    /** The input's BYTEA columns: rows keep {@code byte[]}, Calcite's code reads {@code ByteString}. */
    private final int[] binaryColumns;

    private CalcEvaluator(Function1<DataContext, Object[]> condition, Function1<DataContext, Object[]> projection,
                          JavaTypeFactory typeFactory, int[] binaryColumns) {
        this.condition = condition;
        this.projection = projection;
        this.typeFactory = typeFactory;
        this.binaryColumns = binaryColumns;
    }

    static CalcEvaluator of(CalcStep step, RowSchema inputSchema) {
        QueryPlanner planner = new QueryPlanner(Map.of("input", inputSchema));
        RelNode rel = planner.plan(step.sql());
        RexProgram program;
        if (rel instanceof Calc calc && calc.getInput() instanceof TableScan) {
            program = calc.getProgram();
        } else if (rel instanceof TableScan) {
            program = RexProgram.createIdentity(rel.getRowType());
        } else {
            throw new CompileException(CompileException.Category.UNSUPPORTED,
                "stored step " + step.id() + " is not a single calculation: " + step.sql(), 0, null);
        }
        RelDataType inputType = CalciteTypes.rowType(inputSchema, planner.typeFactory());
        List<RexNode> projects = program.getProjectList().stream().map(program::expandLocalRef).toList();
        Function1<DataContext, Object[]> projection =
            RexExecutorImpl.getExecutable(planner.rexBuilder(), projects, inputType).getFunction();
        Function1<DataContext, Object[]> condition = program.getCondition() == null ? null
            : RexExecutorImpl.getExecutable(planner.rexBuilder(),
                List.of(program.expandLocalRef(program.getCondition())), inputType).getFunction();
        int[] binaryColumns = IntStream.range(0, inputSchema.columns().size())
            .filter(i -> inputSchema.columns().get(i).type() == SqlType.BYTEA)
            .toArray();
        return new CalcEvaluator(condition, projection, (JavaTypeFactory) planner.typeFactory(), binaryColumns);
    }

    boolean hasCondition() {
        return condition != null;
    }

    /** True when the row passes the step's WHERE; SQL's unknown (null) does not pass. */
    boolean test(Object[] row) {
        return Boolean.TRUE.equals(condition.apply(new RowContext(calciteRow(row), typeFactory))[0]);
    }

    Object[] project(Object[] row) {
        Object[] projected = projection.apply(new RowContext(calciteRow(row), typeFactory));
        for (int i = 0; i < projected.length; i++) {
            if (projected[i] instanceof ByteString bytes) {
                projected[i] = bytes.getBytes();
            }
        }
        return projected;
    }

    private Object[] calciteRow(Object[] row) {
        if (binaryColumns.length == 0) {
            return row;
        }
        Object[] copy = row.clone();
        for (int column : binaryColumns) {
            if (copy[column] instanceof byte[] bytes) {
                copy[column] = new ByteString(bytes);
            }
        }
        return copy;
    }

    /** Hands one input row to Calcite's generated code, which reads it as {@code inputRecord}. */
    private record RowContext(Object[] row, JavaTypeFactory typeFactory) implements DataContext {
        @Override
        public SchemaPlus getRootSchema() {
            return null;
        }

        @Override
        public JavaTypeFactory getTypeFactory() {
            return typeFactory;
        }

        @Override
        public QueryProvider getQueryProvider() {
            return null;
        }

        @Override
        public Object get(String name) {
            if ("inputRecord".equals(name)) {
                return row;
            }
            if (Variable.CURRENT_TIMESTAMP.camelName.equals(name) || Variable.LOCAL_TIMESTAMP.camelName.equals(name)
                || Variable.UTC_TIMESTAMP.camelName.equals(name)) {
                return System.currentTimeMillis();
            }
            if (Variable.TIME_ZONE.camelName.equals(name)) {
                return java.util.TimeZone.getTimeZone("UTC");
            }
            return null;
        }
    }
}
