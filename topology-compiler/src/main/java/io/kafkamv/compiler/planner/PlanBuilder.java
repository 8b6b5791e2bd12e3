package io.kafkamv.compiler.planner;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.functions.PostgresLibraryFunctions;
import io.kafkamv.compiler.plan.AggregateStep;
import io.kafkamv.compiler.plan.AggregateStep.AggregateCall;
import io.kafkamv.compiler.plan.AggregateStep.AggregateFunction;
import io.kafkamv.compiler.plan.CalcStep;
import io.kafkamv.compiler.plan.JoinStep;
import io.kafkamv.compiler.plan.JoinStep.JoinKind;
import io.kafkamv.compiler.plan.LookupJoinStep;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.compiler.plan.SourceScanStep;
import io.kafkamv.compiler.plan.TableScanStep;
import io.kafkamv.compiler.plan.TopNStep;
import io.kafkamv.compiler.plan.TopNStep.SortField;
import io.kafkamv.compiler.plan.UnionAllStep;
import io.kafkamv.compiler.plan.WindowStep;
import io.kafkamv.compiler.types.CalciteTypes;
import io.kafkamv.connectors.format.SourceRecordDecoder;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Snapshot;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/** Turns an optimized relational tree into plan steps, inputs first; refuses what it cannot run. */
final class PlanBuilder {

    private final Map<String, Relation> relations;
    private final List<PlanStep> steps = new ArrayList<>();
    private final Set<String> ids = new HashSet<>();
    private final Map<String, PlanStep> scans = new java.util.HashMap<>();
    private final int exchangePartitions;

    private final String statementText;

    /**
     * @param exchangePartitions how many partitions the exchanges of joins use
     * @param statementText      the statement, where errors about what cannot be run point
     */
    PlanBuilder(Map<String, Relation> relations, int exchangePartitions, String statementText) {
        this.relations = relations;
        this.exchangePartitions = exchangePartitions;
        this.statementText = statementText;
    }

    /**
     * An error for something the plan cannot run, pointing at the first place the statement uses
     * {@code keyword} (a regular expression of words), or at its start when it does not.
     */
    private CompileException unsupported(String what, String keyword) {
        Matcher match = Pattern.compile("\\b(?:" + keyword + ")\\b", Pattern.CASE_INSENSITIVE).matcher(statementText);
        return new CompileException(CompileException.Category.UNSUPPORTED, what + " is not supported yet",
            match.find() ? match.start() + 1 : 0, "see docs/sql.md for what views can do today");
    }

    /** Adds the steps for {@code rel} and returns them all, {@code rel}'s own step last. */
    List<PlanStep> build(RelNode rel) {
        visit(rel);
        Set<String> read = new HashSet<>();
        steps.forEach(step -> {
            if (step instanceof TableScanStep scan) {
                read.add(scan.topic());
            } else if (step instanceof SourceScanStep scan) {
                read.add(scan.topic());
            }
        });
        for (PlanStep step : steps) {
            if (step instanceof LookupJoinStep lookup && read.contains(lookup.topic())) {
                // Kafka Streams reads a topic once, as a table kept by every instance or as a partitioned input.
                throw lookupError("a view cannot both read " + lookup.table() + " and look it up FOR SYSTEM_TIME AS OF",
                    "join " + lookup.table() + " without FOR SYSTEM_TIME AS OF in both places, or look it up in both");
            }
        }
        return List.copyOf(steps);
    }

    private PlanStep visit(RelNode rel) {
        PlanStep step;
        if (rel instanceof TableScan scan) {
            // A relation read twice (a self-union or self-join) is one source: Kafka Streams reads a topic once.
            String relation = scan.getTable().getQualifiedName().get(scan.getTable().getQualifiedName().size() - 1);
            PlanStep existing = scans.get(relation);
            if (existing != null) {
                return existing;
            }
            step = scan(scan);
            scans.put(relation, step);
        } else if (rel instanceof Calc calc) {
            step = calc(calc);
        } else if (rel instanceof Aggregate aggregate) {
            step = aggregate(aggregate);
        } else if (rel instanceof Union union && union.all) {
            step = unionAll(union);
        } else if (rel instanceof Join join) {
            LookupTable lookup = lookupTable(join.getRight());
            return lookup != null ? lookupJoin(join, lookup) : join(join);
        } else if (rel instanceof Snapshot) {
            throw lookupError("FOR SYSTEM_TIME AS OF is supported only on the table a JOIN looks up, on its right",
                "write FROM events e JOIN t FOR SYSTEM_TIME AS OF PROCTIME() ON ...");
        } else if (rel instanceof TableFunctionScan scan && scan.getInputs().size() == 1
            && scan.getCall() instanceof RexCall call && WINDOW_FUNCTIONS.contains(call.getOperator().getName())) {
            step = window(scan, call);
        } else if (rel instanceof Sort sort) {
            if (sort.fetch == null && sort.offset == null) {
                // A view is a set of rows: an order alone does not change which rows.
                return visit(sort.getInput());
            }
            step = topN(sort);
        } else {
            throw unsupported(describe(rel), keyword(rel));
        }
        steps.add(step);
        return step;
    }

    private PlanStep scan(TableScan scan) {
        List<String> name = scan.getTable().getQualifiedName();
        Relation relation = relations.get(name.get(name.size() - 1));
        if (!relation.hasNativeFormat()) {
            return new SourceScanStep(uniqueId("source-" + relation.name()), relation.name(), relation.topic(),
                relation.format(), relation.deadLetterTopic(), relation.schema(), relation.key(), relation.formatOptions(),
                SourceRecordDecoder.keyIsPrimaryKey(relation.formatOptions()));
        }
        return new TableScanStep(uniqueId("scan-" + relation.name()), relation.name(), relation.topic(),
            relation.schema(), relation.key(), relation.appendOnly());
    }

    private PlanStep calc(Calc calc) {
        PlanStep input = calc.getInput() instanceof Window window ? rowNumberTopN(calc, window) : visit(calc.getInput());
        String sql = CalcSql.of(calc.getProgram(), input.schema());
        RowSchema schema = CalciteTypes.schema(calc.getRowType(), List.of());
        return new CalcStep(uniqueId("calc"), input.id(), sql, schema, input.key());
    }

    private PlanStep aggregate(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            throw unsupported("GROUPING SETS, ROLLUP and CUBE", "GROUPING\\s+SETS|ROLLUP|CUBE");
        }
        PlanStep input = visit(aggregate.getInput());
        List<AggregateCall> calls = new ArrayList<>();
        for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
            if (!call.collation.getFieldCollations().isEmpty() || call.getArgList().size() > 1) {
                String name = PostgresLibraryFunctions.postgresName(
                    call.getAggregation().getName().toLowerCase(java.util.Locale.ROOT));
                throw unsupported(name + (call.collation.getFieldCollations().isEmpty() ? " of several arguments"
                    : " with an order (WITHIN GROUP or ORDER BY)") + " in a materialized view", name);
            }
            int argument = call.getArgList().isEmpty() ? -1 : call.getArgList().get(0);
            calls.add(new AggregateCall(function(call), argument, call.isDistinct(),
                call.filterArg >= 0 ? call.filterArg : null));
        }
        RowSchema schema = CalciteTypes.schema(aggregate.getRowType(), List.of());
        List<Column> key = schema.columns().subList(0, aggregate.getGroupCount());
        return new AggregateStep(uniqueId("aggregate"), input.id(), aggregate.getGroupSet().asList(), calls,
            schema, key);
    }

    private PlanStep unionAll(Union union) {
        List<String> inputs = new ArrayList<>();
        for (RelNode input : union.getInputs()) {
            inputs.add(visit(input).id());
        }
        RowSchema schema = CalciteTypes.schema(union.getRowType(), List.of());
        return new UnionAllStep(uniqueId("union"), inputs, schema, UnionAllStep.unionKey());
    }

    private static final Set<String> WINDOW_FUNCTIONS = Set.of("TUMBLE", "HOP");

    /** {@code TUMBLE(DESCRIPTOR(ts), size [, offset])} or {@code HOP(DESCRIPTOR(ts), slide, size [, offset])}. */
    private PlanStep window(TableFunctionScan scan, RexCall call) {
        PlanStep input = visit(scan.getInputs().get(0));
        List<RexNode> operands = call.getOperands();
        if (!(operands.get(0) instanceof RexCall descriptor) || descriptor.getOperands().size() != 1
            || !(descriptor.getOperands().get(0) instanceof RexInputRef time)) {
            throw unsupported(call.getOperator().getName() + " over anything but one time column", "TUMBLE|HOP");
        }
        boolean hop = call.getOperator().getName().equals("HOP");
        long size = intervalMillis(operands.get(hop ? 2 : 1));
        long slide = hop ? intervalMillis(operands.get(1)) : size;
        int offsetOperand = hop ? 3 : 2;
        long offset = operands.size() > offsetOperand ? intervalMillis(operands.get(offsetOperand)) : 0;
        RowSchema schema = CalciteTypes.schema(scan.getRowType(), List.of());
        return new WindowStep(uniqueId("window"), input.id(), hop ? WindowStep.WindowKind.HOP : WindowStep.WindowKind.TUMBLE,
            time.getIndex(), size, slide, offset, schema, hop ? WindowStep.hopKey() : input.key());
    }

    private long intervalMillis(RexNode node) {
        if (node instanceof RexLiteral literal
            && literal.getType().getSqlTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME
            && literal.getValueAs(Long.class) != null && literal.getValueAs(Long.class) > 0) {
            return literal.getValueAs(Long.class);
        }
        throw unsupported("a window size that is not a positive interval of days to seconds", "TUMBLE|HOP");
    }

    private PlanStep topN(Sort sort) {
        if (sort.fetch == null) {
            throw unsupported("OFFSET without LIMIT", "OFFSET");
        }
        PlanStep input = visit(sort.getInput());
        long offset = sort.offset == null ? 0 : literal(sort.offset, "OFFSET");
        long limit = literal(sort.fetch, "LIMIT");
        return new TopNStep(uniqueId("top-n"), input.id(), List.of(), sortFields(sort.getCollation()), offset, limit,
            false, 1, input.schema(), TopNStep.topNKey());
    }

    /**
     * {@code ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...)} kept only up to some number: a
     * top-N per group. Its filter stays in the calc on top, where it is then always true.
     */
    private PlanStep rowNumberTopN(Calc calc, Window window) {
        String expected = "window functions other than ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) "
            + "filtered by a bound, such as WHERE rn <= 10,";
        if (window.groups.size() != 1 || window.groups.get(0).aggCalls.size() != 1
            || window.groups.get(0).aggCalls.get(0).getKind() != org.apache.calcite.sql.SqlKind.ROW_NUMBER) {
            throw unsupported(expected, "OVER");
        }
        Window.Group group = window.groups.get(0);
        int rowNumber = window.getInput().getRowType().getFieldCount();
        RexProgram program = calc.getProgram();
        Long limit = null;
        if (program.getCondition() != null) {
            for (RexNode conjunct : RelOptUtil.conjunctions(program.expandLocalRef(program.getCondition()))) {
                Long bound = rowNumberBound(conjunct, rowNumber);
                if (bound != null) {
                    limit = limit == null ? bound : Math.min(limit, bound);
                }
            }
        }
        if (limit == null) {
            throw unsupported(expected, "OVER");
        }
        PlanStep input = visit(window.getInput());
        List<Integer> partitionBy = group.keys.asList();
        PlanStep step = new TopNStep(uniqueId("top-n"), input.id(), partitionBy, sortFields(group.orderKeys),
            0, Math.max(limit, 0), true, partitionBy.isEmpty() ? 1 : exchangePartitions,
            CalciteTypes.schema(window.getRowType(), List.of()), TopNStep.topNKey());
        steps.add(step);
        return step;
    }

    /** The n of {@code rn <= n}, {@code rn < n + 1} or {@code rn = 1}, or null for another condition. */
    private static Long rowNumberBound(RexNode conjunct, int rowNumber) {
        if (!(conjunct instanceof RexCall call) || call.getOperands().size() != 2) {
            return null;
        }
        RexNode left = call.getOperands().get(0);
        RexNode right = call.getOperands().get(1);
        SqlKind kind = call.getKind();
        if (right instanceof RexInputRef && left instanceof RexLiteral) {
            RexNode swap = left;
            left = right;
            right = swap;
            kind = kind.reverse();
        }
        if (!(left instanceof RexInputRef ref) || ref.getIndex() != rowNumber || !(right instanceof RexLiteral literal)) {
            return null;
        }
        Long value = literal.getValueAs(Long.class);
        if (value == null) {
            return null;
        }
        return switch (kind) {
            case LESS_THAN_OR_EQUAL -> value;
            case LESS_THAN -> value - 1;
            case EQUALS -> value == 1 ? 1L : null;
            default -> null;
        };
    }

    private static List<SortField> sortFields(RelCollation collation) {
        return collation.getFieldCollations().stream().map(field -> {
            RelFieldCollation.NullDirection nulls = field.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
                ? field.direction.defaultNullDirection() : field.nullDirection;
            return new SortField(field.getFieldIndex(), field.direction.isDescending(),
                nulls == RelFieldCollation.NullDirection.FIRST);
        }).toList();
    }

    private long literal(RexNode node, String clause) {
        if (node instanceof RexLiteral literal && literal.getValueAs(Long.class) != null) {
            return literal.getValueAs(Long.class);
        }
        throw unsupported(clause + " with anything but a number", clause);
    }

    /**
     * An equi-join step; what is left of the condition after the equalities becomes a filter on the
     * joined rows, which is only right for an inner join.
     */
    private PlanStep join(Join join) {
        JoinKind kind = switch (join.getJoinType()) {
            case INNER -> JoinKind.INNER;
            case LEFT -> JoinKind.LEFT;
            case RIGHT -> JoinKind.RIGHT;
            case FULL -> JoinKind.FULL;
            default -> throw unsupported(join.getJoinType() + " JOIN", "JOIN");
        };
        JoinInfo info = join.analyzeCondition();
        List<Integer> nullSafe = new ArrayList<>();
        for (int i = 0; i < info.nullExclusionFlags.size(); i++) {
            if (!info.nullExclusionFlags.get(i)) {
                nullSafe.add(i);
            }
        }
        if (!info.nonEquiConditions.isEmpty() && kind != JoinKind.INNER) {
            throw unsupported(kind + " JOIN on a condition other than column equalities", kind.name());
        }
        PlanStep left = visit(join.getLeft());
        PlanStep right = visit(join.getRight());
        List<Column> joinKey = new ArrayList<>();
        for (int i = 0; i < info.leftKeys.size(); i++) {
            Column l = left.schema().columns().get(info.leftKeys.get(i));
            Column r = right.schema().columns().get(info.rightKeys.get(i));
            joinKey.add(new Column(l.name(), comparisonType(l.type(), r.type()), true));
        }
        RowSchema schema = CalciteTypes.schema(join.getRowType(), List.of());
        PlanStep step = new JoinStep(uniqueId("join"), left.id(), right.id(), kind, info.leftKeys, info.rightKeys,
            joinKey, nullSafe, exchangePartitions, schema, JoinStep.joinOutputKey());
        steps.add(step);
        if (info.nonEquiConditions.isEmpty()) {
            return step;
        }
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        RexProgram filter = RexProgram.create(join.getRowType(), rexBuilder.identityProjects(join.getRowType()),
            RexUtil.composeConjunction(rexBuilder, info.nonEquiConditions), join.getRowType(), rexBuilder);
        PlanStep filtered = new CalcStep(uniqueId("calc"), step.id(), CalcSql.of(filter, schema), schema, step.key());
        steps.add(filtered);
        return filtered;
    }

    /** The table a lookup join reads and what Calcite computes over its rows (null: the rows as they are). */
    private record LookupTable(TableScan scan, RexProgram program) {

        /** The table column that the column {@code position} of the computed rows is, or -1 if it is computed. */
        int tableColumn(int position) {
            if (program == null) {
                return position;
            }
            return program.expandLocalRef(program.getProjectList().get(position)) instanceof RexInputRef ref
                ? ref.getIndex() : -1;
        }
    }

    /** A join's right side read FOR SYSTEM_TIME AS OF: a snapshot of a table, with calculations around it. */
    private LookupTable lookupTable(RelNode rel) {
        RexProgram outer = null;
        if (rel instanceof Calc calc && calc.getInput() instanceof Snapshot) {
            outer = calc.getProgram();
            rel = calc.getInput();
        }
        if (!(rel instanceof Snapshot snapshot)) {
            return null;
        }
        RelNode input = snapshot.getInput();
        RexProgram inner = null;
        if (input instanceof Calc calc) {
            inner = calc.getProgram();
            input = calc.getInput();
        }
        if (!(input instanceof TableScan scan)) {
            throw lookupError("FOR SYSTEM_TIME AS OF is supported only on a table or materialized view by its name",
                "look up the table itself and compute over the joined rows");
        }
        RexProgram program = inner == null ? outer
            : outer == null ? inner : RexProgramBuilder.mergePrograms(outer, inner, snapshot.getCluster().getRexBuilder());
        return new LookupTable(scan, program == null || program.isTrivial() ? null : program);
    }

    /**
     * A join whose right side is a table looked up as it is when each left row is processed: the equalities
     * of the condition must give a value to every column of the table's key, so that a left row meets at most
     * one table row; an inner join's other conditions filter the joined rows.
     */
    private PlanStep lookupJoin(Join join, LookupTable lookup) {
        if (join.getJoinType() != JoinRelType.INNER && join.getJoinType() != JoinRelType.LEFT) {
            throw lookupError(join.getJoinType() + " JOIN of a table looked up FOR SYSTEM_TIME AS OF is not supported",
                "a lookup join keeps every left row (LEFT JOIN) or the matched ones (JOIN)");
        }
        List<String> name = lookup.scan().getTable().getQualifiedName();
        Relation table = relations.get(name.get(name.size() - 1));
        if (!table.hasNativeFormat()) {
            throw lookupError("FOR SYSTEM_TIME AS OF on source " + table.name() + " is not supported",
                "look up a table or materialized view; a source can be kept in one: CREATE MATERIALIZED VIEW "
                    + table.name() + "_latest AS SELECT ... GROUP BY its key");
        }
        List<String> columnNames = table.schema().columns().stream().map(Column::name).toList();
        List<Integer> keyColumns = table.key().stream().map(column -> columnNames.indexOf(column.name())).toList();
        // Only a table's key is its primary key columns by name: a view's key is its plan's, which a column of the
        // same name may not hold (SELECT lower(name) AS name ...), so views are not looked up until they record it.
        if (keyColumns.contains(-1) || !table.schema().keyColumns().equals(table.key().stream().map(Column::name).toList())) {
            throw lookupError(table.name() + " has no primary key to be looked up by",
                "look up a table with a PRIMARY KEY, by all of its key columns (views cannot be looked up yet)");
        }
        for (Column column : table.key()) {
            if (Set.of(SqlType.REAL, SqlType.DOUBLE, SqlType.DECIMAL).contains(column.type())) {
                throw lookupError("a lookup join by a " + column.type().postgresName() + " key is not supported",
                    "look up by an integer, text, date, time or boolean key");
            }
        }
        JoinInfo info = join.analyzeCondition();
        PlanStep left = visit(join.getLeft());
        Integer[] inputKeys = new Integer[keyColumns.size()];
        boolean otherConditions = !info.nonEquiConditions.isEmpty();
        for (int i = 0; i < info.rightKeys.size(); i++) {
            int key = keyColumns.indexOf(lookup.tableColumn(info.rightKeys.get(i)));
            Column leftColumn = left.schema().columns().get(info.leftKeys.get(i));
            if (key < 0 || inputKeys[key] != null || !lookupComparable(leftColumn.type(), table.key().get(key).type())) {
                otherConditions = true;
            } else {
                inputKeys[key] = info.leftKeys.get(i);
            }
        }
        if (java.util.Arrays.asList(inputKeys).contains(null)) {
            throw lookupError("a lookup join must compare every column of " + table.name() + "'s key ("
                    + String.join(", ", table.key().stream().map(Column::name).toList()) + ") with a value of the same type",
                "add the missing equalities to ON, casting where the types differ");
        }
        if (otherConditions && join.getJoinType() == JoinRelType.LEFT) {
            throw lookupError("a LEFT JOIN ... FOR SYSTEM_TIME AS OF on a condition other than key equalities is not supported",
                "filter the joined rows in WHERE, or look up with JOIN");
        }
        RowSchema schema = CalciteTypes.schema(join.getRowType(), List.of());
        String tableSql = lookup.program() == null ? null : CalcSql.of(lookup.program(), table.schema());
        PlanStep step = new LookupJoinStep(uniqueId("lookup-" + table.name()), left.id(), table.name(), table.topic(),
            table.schema(), table.key(), List.of(inputKeys), tableSql, join.getJoinType() == JoinRelType.LEFT, schema,
            left.key());
        steps.add(step);
        if (!otherConditions) {
            return step;
        }
        // The whole condition again: the key equalities hold for every joined row, the others filter.
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        RexProgram filter = RexProgram.create(join.getRowType(), rexBuilder.identityProjects(join.getRowType()),
            join.getCondition(), join.getRowType(), rexBuilder);
        PlanStep filtered = new CalcStep(uniqueId("calc"), step.id(), CalcSql.of(filter, schema), schema, step.key());
        steps.add(filtered);
        return filtered;
    }

    /** Whether a left value can be looked up in a key column: of its type, or both integers (converted). */
    private static boolean lookupComparable(SqlType left, SqlType key) {
        return left == key || left.isInteger() && key.isInteger();
    }

    private CompileException lookupError(String message, String hint) {
        Matcher match = Pattern.compile("\\bSYSTEM_TIME\\b", Pattern.CASE_INSENSITIVE).matcher(statementText);
        return new CompileException(CompileException.Category.UNSUPPORTED, message,
            match.find() ? match.start() + 1 : 0, hint);
    }

    /** The type two join key columns are compared in; Calcite has already cast all but numbers. */
    private SqlType comparisonType(SqlType left, SqlType right) {
        if (left == right) {
            return left;
        }
        Set<SqlType> integers = Set.of(SqlType.SMALLINT, SqlType.INTEGER, SqlType.BIGINT);
        Set<SqlType> floats = Set.of(SqlType.REAL, SqlType.DOUBLE);
        if (integers.contains(left) && integers.contains(right)) {
            return SqlType.BIGINT;
        }
        if (floats.contains(left) || floats.contains(right)) {
            return SqlType.DOUBLE;
        }
        if (left == SqlType.DECIMAL || right == SqlType.DECIMAL) {
            return SqlType.DECIMAL;
        }
        throw unsupported("a join of " + left.postgresName() + " with " + right.postgresName(), "JOIN");
    }

    private AggregateFunction function(org.apache.calcite.rel.core.AggregateCall call) {
        return switch (call.getAggregation().getKind()) {
            case COUNT -> AggregateFunction.COUNT;
            case SUM, SUM0 -> AggregateFunction.SUM;
            case MIN -> AggregateFunction.MIN;
            case MAX -> AggregateFunction.MAX;
            case AVG -> AggregateFunction.AVG;
            default -> throw unsupported("aggregate function " + call.getAggregation().getName(),
                call.getAggregation().getName());
        };
    }

    private String uniqueId(String base) {
        String id = Set.of("calc", "aggregate", "union", "join", "top-n", "window").contains(base)
            ? base + "-" + (steps.size() + 1) : base;
        int suffix = 2;
        String candidate = id;
        while (!ids.add(candidate)) {
            candidate = id + "-" + suffix++;
        }
        return candidate;
    }

    /** Where in the statement a relational operator comes from, as a regular expression of keywords. */
    private static String keyword(RelNode rel) {
        return switch (rel.getRelTypeName().replace("Logical", "")) {
            case "Join", "Correlate" -> "JOIN|LATERAL|EXISTS|IN";
            case "Intersect" -> "INTERSECT";
            case "Minus" -> "EXCEPT";
            case "Union" -> "UNION";
            case "Sort" -> "ORDER\\s+BY|LIMIT|OFFSET|FETCH";
            case "Window" -> "OVER";
            case "Values" -> "VALUES";
            default -> "SELECT";
        };
    }

    private static String describe(RelNode rel) {
        String type = rel.getRelTypeName().replace("Logical", "");
        return switch (type) {
            case "Join", "Correlate" -> "JOIN";
            case "Union", "Intersect", "Minus" -> type.toUpperCase(java.util.Locale.ROOT);
            case "Sort" -> "ORDER BY / LIMIT";
            case "Window" -> "window functions (OVER)";
            case "Values" -> "VALUES without a table";
            case "TableFunctionScan" -> "table functions";
            default -> type;
        };
    }
}
