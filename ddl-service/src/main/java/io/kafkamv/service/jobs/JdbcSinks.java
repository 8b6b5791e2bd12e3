package io.kafkamv.service.jobs;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.SinkOutput;
import io.kafkamv.connectors.jdbc.JdbcTarget;
import io.kafkamv.connectors.secret.SecretReferences;

/**
 * The PostgreSQL table a JDBC sink's plan keeps, as the connector takes it, with the secrets its options name read
 * here ({@link SecretReferences}).
 */
public final class JdbcSinks {

    private JdbcSinks() {
    }

    public static JdbcTarget target(PhysicalPlan plan) {
        SinkOutput.Jdbc jdbc = plan.sink().jdbc();
        return new JdbcTarget(SecretReferences.resolve("url", jdbc.url()), SecretReferences.resolve("user", jdbc.user()),
            SecretReferences.resolve("password", jdbc.password()), jdbc.table(), plan.schema().columns(),
            plan.sink().keyColumns());
    }
}
