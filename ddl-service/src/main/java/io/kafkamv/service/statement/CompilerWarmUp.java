package io.kafkamv.service.statement;

import java.util.List;

import io.kafkamv.compiler.CompiledView;
import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.jobstore.JobStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles a throwaway view once, in the background while the service starts, and puts its plan
 * and job through the JSON mappings they are stored with. Calcite loads and generates a lot of code
 * on its first use (about a second here), and Jackson introspects every plan step class on its
 * first; without this, the first user's CREATE pays for both (a background CREATE took 150 ms the
 * first time and 35-55 ms after).
 */
public final class CompilerWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(CompilerWarmUp.class);
    private static final String VIEW = "CREATE MATERIALIZED VIEW warm_up AS "
        + "SELECT k, count(*) AS n, sum(v) AS s FROM warm_up_input WHERE v > 0 GROUP BY k";

    private CompilerWarmUp() {
    }

    public static void start(int exchangePartitions) {
        Thread thread = new Thread(() -> {
            try {
                Relation input = new Relation("warm_up_input",
                    new RowSchema(List.of(Column.of("k", SqlType.INTEGER), Column.of("v", SqlType.BIGINT)), List.of("k")),
                    List.of(Column.of("k", SqlType.INTEGER)), "warm-up");
                CompiledView view = new SqlCompiler(() -> List.of(input), exchangePartitions)
                    .compileView((SqlCreateMaterializedView) SqlStatementParser.parse(VIEW), VIEW, 0);
                JobStore.warmUp(PlanJson.toTree(PlanJson.fromTree(PlanJson.toTree(view.plan()))));
            } catch (RuntimeException e) {
                LOG.debug("Compiler warm-up failed; the first CREATE will be slower", e);
            }
        }, "compiler-warm-up");
        thread.setDaemon(true);
        thread.start();
    }
}
