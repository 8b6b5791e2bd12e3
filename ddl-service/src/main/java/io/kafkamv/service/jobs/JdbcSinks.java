package io.kafkamv.service.jobs;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.SinkOutput;
import io.kafkamv.connectors.jdbc.JdbcTarget;

/** The PostgreSQL table a JDBC sink's plan keeps, as the connector takes it. */
public final class JdbcSinks {

    private JdbcSinks() {
    }

    public static JdbcTarget target(PhysicalPlan plan) {
        SinkOutput.Jdbc jdbc = plan.sink().jdbc();
        return new JdbcTarget(jdbc.url(), jdbc.user(), jdbc.password(), jdbc.table(), plan.schema().columns(),
            plan.sink().keyColumns());
    }
}
