package io.kafkamv.compiler.topology.internal;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.plan.CalcStep;
import io.kafkamv.compiler.planner.QueryPlanner;
import io.kafkamv.compiler.postgres.PostgresExpressions;
import io.kafkamv.compiler.runtime.EvaluationErrors;
import io.kafkamv.compiler.types.CalciteTypes;
import io.kafkamv.connectors.schema.Column;
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
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Evaluates a {@link CalcStep} on rows: the step's SQL is planned again over its input and its
 * expressions compiled to bytecode by Calcite (Janino), so every function Calcite knows works, with
 * SQL's rules for nulls. Arithmetic is checked, as PostgreSQL's is: an integer that overflows is an
 * error, not a wrapped-around number. A row whose expression fails gets null there and the error goes
 * to {@link EvaluationErrors}. PostgreSQL's rules for expressions come from {@link PostgresExpressions}, as a
 * batch query's do. Thread-safe: the compiled code keeps no state between rows.
 */
public final class CalcEvaluator {

    private final String stepId;
    private final Function1<DataContext, Object[]> condition;
    private final Function1<DataContext, Object[]> projection;
    private final Supplier<List<Function1<DataContext, Object[]>>> compileEachProjection;
    /** Each projected expression on its own, compiled when a row first fails, to find which one failed. */
    private List<Function1<DataContext, Object[]>> eachProjection;
    private final List<String> columnNames;
    private final JavaTypeFactory typeFactory;
    /** The input's BYTEA columns: rows keep {@code byte[]}, Calcite's code reads {@code ByteString}. */
    private final int[] binaryColumns;
    private final EvaluationErrors errors;

    private CalcEvaluator(String stepId, Function1<DataContext, Object[]> condition,
                          Function1<DataContext, Object[]> projection,
                          Supplier<List<Function1<DataContext, Object[]>>> compileEachProjection, List<String> columnNames,
                          JavaTypeFactory typeFactory, int[] binaryColumns, EvaluationErrors errors) {
        this.stepId = stepId;
        this.condition = condition;
        this.projection = projection;
        this.compileEachProjection = compileEachProjection;
        this.columnNames = columnNames;
        this.typeFactory = typeFactory;
        this.binaryColumns = binaryColumns;
        this.errors = errors;
    }

    public static CalcEvaluator of(CalcStep step, RowSchema inputSchema, EvaluationErrors errors) {
        QueryPlanner planner = new QueryPlanner(Map.of("input", inputSchema));
        RelNode rel = planner.plan(step.sql()).accept(new PostgresExpressions(planner.rexBuilder()));
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
        List<RexNode> projects = asStored(program.getProjectList().stream().map(program::expandLocalRef).toList(),
            step.schema(), planner);
        Function1<DataContext, Object[]> projection =
            RexExecutorImpl.getExecutable(planner.rexBuilder(), projects, inputType).getFunction();
        Supplier<List<Function1<DataContext, Object[]>>> eachProjection = () -> projects.stream()
            .map(project -> RexExecutorImpl.getExecutable(planner.rexBuilder(), List.of(project), inputType).getFunction())
            .toList();
        Function1<DataContext, Object[]> condition = program.getCondition() == null ? null
            : RexExecutorImpl.getExecutable(planner.rexBuilder(),
                List.of(program.expandLocalRef(program.getCondition())), inputType).getFunction();
        int[] binaryColumns = IntStream.range(0, inputSchema.columns().size())
            .filter(i -> inputSchema.columns().get(i).type() == SqlType.BYTEA)
            .toArray();
        return new CalcEvaluator(step.id(), condition, projection, eachProjection, step.schema().columns().stream().map(Column::name).toList(),
            (JavaTypeFactory) planner.typeFactory(), binaryColumns, errors);
    }

    /**
     * The step's expressions with the types its stored schema gives them. A view created by an earlier kafka-mv
     * keeps the types its rows were written with, where this kafka-mv would give an expression another (as
     * EXTRACT became a numeric, as in PostgreSQL): the value is cast to the stored type.
     */
    private static List<RexNode> asStored(List<RexNode> projects, RowSchema stored, QueryPlanner planner) {
        List<RexNode> result = new java.util.ArrayList<>(projects.size());
        for (int i = 0; i < projects.size(); i++) {
            RexNode project = projects.get(i);
            Column column = stored.columns().get(i);
            SqlType type = CalciteTypes.sqlType(project.getType());
            if (type == column.type()) {
                result.add(project);
                continue;
            }
            RexBuilder rex = planner.rexBuilder();
            // Calcite's bigint EXTRACT cut a fraction off; a cast would round it.
            RexNode value = type == SqlType.DECIMAL && column.type().isInteger()
                ? rex.makeCall(SqlStdOperatorTable.TRUNCATE, project, rex.makeExactLiteral(java.math.BigDecimal.ZERO))
                : project;
            // As nullable as the value: a cast to a NOT NULL type would turn a null into 0 (1970-01-01 for a date).
            RelDataType storedType = planner.typeFactory().createTypeWithNullability(
                CalciteTypes.type(column, planner.typeFactory()), project.getType().isNullable());
            result.add(rex.makeCast(storedType, value, true, false));
        }
        return result;
    }

    public boolean hasCondition() {
        return condition != null;
    }

    /** True when the row passes the step's WHERE; SQL's unknown (null) does not pass, nor does an error. */
    public boolean test(Object[] row) {
        try {
            return Boolean.TRUE.equals(condition.apply(new RowContext(calciteRow(row), typeFactory))[0]);
        } catch (RuntimeException e) {
            reportBadValue("WHERE", e);
            return false;
        }
    }

    public Object[] project(Object[] row) {
        RowContext context = new RowContext(calciteRow(row), typeFactory);
        Object[] projected;
        try {
            projected = projection.apply(context);
        } catch (RuntimeException e) {
            if (!EvaluationErrors.isBadValue(e)) {
                throw e;
            }
            // Which expression failed is found by computing them one by one: only it is null.
            projected = projectOneByOne(context);
        }
        for (int i = 0; i < projected.length; i++) {
            if (projected[i] instanceof ByteString bytes) {
                projected[i] = bytes.getBytes();
            }
        }
        return projected;
    }

    /** The row's expressions each on its own, so that only those that fail are null. */
    private Object[] projectOneByOne(RowContext context) {
        List<Function1<DataContext, Object[]>> expressions = eachProjection();
        Object[] projected = new Object[expressions.size()];
        for (int i = 0; i < projected.length; i++) {
            try {
                projected[i] = expressions.get(i).apply(context)[0];
            } catch (RuntimeException e) {
                reportBadValue(columnNames.get(i), e);
            }
        }
        return projected;
    }

    /** Reports an error of the data; any other exception is a fault of ours and goes on up. */
    private void reportBadValue(String what, RuntimeException e) {
        if (!EvaluationErrors.isBadValue(e)) {
            throw e;
        }
        errors.report(stepId, what, e);
    }

    /** Only rows that fail come here, so a lock is no cost worth avoiding. */
    private synchronized List<Function1<DataContext, Object[]>> eachProjection() {
        if (eachProjection == null) {
            eachProjection = compileEachProjection.get();
        }
        return eachProjection;
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
