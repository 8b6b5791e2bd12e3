package io.kafkamv.service.query;

import java.util.function.Supplier;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.types.CalciteTypes;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/** A table or view as Calcite scans it for a query: its rows, read when the query runs. */
final class RelationTable extends AbstractTable implements ScannableTable {

    private final Relation relation;
    private final Supplier<? extends Iterable<Object[]>> rows;

    RelationTable(Relation relation, Supplier<? extends Iterable<Object[]>> rows) {
        this.relation = relation;
        this.rows = rows;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        return CalciteTypes.rowType(relation.schema(), factory);
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return Linq4j.asEnumerable(rows.get());
    }
}
