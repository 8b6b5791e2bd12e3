package io.kafkamv.service.query;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A scan of a {@link RelationTable} that reads only some of its columns. Calcite's planner trims the columns a query
 * does not use ({@link #project}, called by its field trimmer), so {@code SELECT sum(v)} reads one column and
 * {@code SELECT count(*)} none: a view's scan then decodes only those. Calcite's own way, a
 * {@code ProjectableFilterableTable}, runs the scan in its interpreter, which cost more than the decoding it saved.
 */
final class RelationScan extends TableScan implements EnumerableRel {

    private final RelationTable relation;
    /** The table's columns this scan reads, in the order of its row. */
    private final int[] fields;
    /** What of the filter right above this scan its reading threads apply; null for nothing. */
    private final ScanFilter filter;

    RelationScan(RelOptCluster cluster, RelOptTable table, RelationTable relation, int[] fields) {
        this(cluster, table, relation, fields, null);
    }

    private RelationScan(RelOptCluster cluster, RelOptTable table, RelationTable relation, int[] fields,
                         ScanFilter filter) {
        super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), List.of(), table);
        this.relation = relation;
        this.fields = fields;
        this.filter = filter;
    }

    /**
     * The plan with each filter right above a scan also applied by the scan's reading threads, as far as
     * {@link ScanFilter} can: rows the filter drops are then never handed to the query. The filter stays where it is.
     * For the plan before Calcite's program.
     */
    static RelNode withFiltersInScans(RelNode plan) {
        return plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (visited instanceof Filter filter && filter.getInput() instanceof RelationScan scan && scan.filter == null) {
                    Optional<ScanFilter> applied = ScanFilter.of(filter.getCondition(), scan.getRowType());
                    if (applied.isPresent()) {
                        return filter.copy(filter.getTraitSet(), new RelationScan(scan.getCluster(), scan.table,
                            scan.relation, scan.fields, applied.get()), filter.getCondition());
                    }
                }
                return visited;
            }
        });
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new RelationScan(getCluster(), table, relation, fields, filter);
    }

    /**
     * The table's columns this scan reads. Calcite takes a table scan's columns for the table's in its metadata
     * (origins, keys, collations): harmless while {@link RelationTable} declares no keys or collations.
     */
    @Override
    public RelDataType deriveRowType() {
        List<RelDataTypeField> columns = table.getRowType().getFieldList();
        return getCluster().getTypeFactory().createStructType(
            Arrays.stream(fields).mapToObj(columns::get).toList());
    }

    @Override
    public RelWriter explainTerms(RelWriter writer) {
        return super.explainTerms(writer).item("fields", Arrays.toString(fields)).itemIf("filter", filter, filter != null);
    }

    /**
     * This scan reading only {@code fieldsUsed} of its columns, unless the trimmer asks for more than columns. Calcite
     * trims once before its rules (not for a query of two joins or more) and once in its program, after
     * {@link #withFiltersInScans}: a filter whose fields are all still read moves with them.
     */
    @Override
    public RelNode project(ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields, RelBuilder relBuilder) {
        boolean filterKept = filter == null || filter.fields().stream().allMatch(fieldsUsed::get);
        if (!extraFields.isEmpty() || fieldsUsed.cardinality() == fields.length || !filterKept) {
            return super.project(fieldsUsed, extraFields, relBuilder);
        }
        List<Integer> used = fieldsUsed.asList();
        return new RelationScan(getCluster(), table, relation, used.stream().mapToInt(field -> fields[field]).toArray(),
            filter == null ? null : filter.moved(used::indexOf));
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer preference) {
        // Calcite's code takes a row of one column as its value and a row of none as an empty list.
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        Expression table = implementor.stash(relation, RelationTable.class);
        Expression root = implementor.getRootExpression();
        Expression columns = Expressions.constant(fields);
        int[] readOrder = RelationTable.readOrder(fields);
        Expression rowFilter = filter == null ? Expressions.constant(null, Predicate.class)
            : implementor.stash(filter.moved(field -> readOrder[field]), Predicate.class);
        Expression rows = switch (physType.getFormat()) {
            case ARRAY -> Expressions.call(table, "read", root, columns, rowFilter);
            case SCALAR -> Expressions.call(table, "readValues", root, columns, rowFilter);
            case LIST -> Expressions.call(table, "readEmptyRows", root);
            default -> throw new IllegalStateException("a scan of " + fields.length + " columns as " + physType.getFormat());
        };
        return implementor.result(physType, Blocks.toBlock(rows));
    }
}
