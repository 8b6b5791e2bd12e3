package io.kafkamv.service.query;

import java.lang.reflect.Type;
import java.util.function.UnaryOperator;

import io.kafkamv.compiler.postgres.PostgresValidator;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * Calcite's preparation of a query for its JDBC driver, validating with {@link PostgresValidator} as the views'
 * compiler does, so that a query and a view give the same errors.
 */
final class PostgresPrepare extends CalcitePrepareImpl {

    @Override
    protected CalcitePreparingStmt getPreparingStmt(Context context, Type elementType,
        CalciteCatalogReader catalogReader, RelOptPlanner planner) {
        EnumerableRel.Prefer prefer = elementType == Object[].class ? EnumerableRel.Prefer.ARRAY
            : EnumerableRel.Prefer.CUSTOM;
        return new CalcitePreparingStmt(this, context, catalogReader, context.getTypeFactory(),
            context.getRootSchema(), prefer, createCluster(planner, new RexBuilder(context.getTypeFactory())),
            enableBindable ? BindableConvention.INSTANCE : EnumerableConvention.INSTANCE, createConvertletTable()) {
            @Override
            protected SqlValidator createSqlValidator(Prepare.CatalogReader reader,
                UnaryOperator<SqlValidator.Config> configTransform) {
                SqlValidator calcites = super.createSqlValidator(reader, configTransform);
                return new PostgresValidator(calcites.getOperatorTable(), (CalciteCatalogReader) reader,
                    context.getTypeFactory(), calcites.config());
            }
        };
    }
}
