package io.kafkamv.compiler.differential;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.SQLException;

import io.kafkamv.compiler.types.PostgresNumeric;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Numeric quotients (AVG of integers and decimals is one) have the digits PostgreSQL gives them:
 * the same value, scale and rounding, checked against the real PostgreSQL for 1,000 random operand pairs from
 * 10^-10 to 10^12 in size.
 */
class NumericDivisionMatchesPostgresIT {

    private static Postgres postgres;

    @BeforeContainer
    static void connect() throws SQLException {
        postgres = new Postgres();
    }

    @AfterContainer
    static void disconnect() throws SQLException {
        postgres.close();
    }

    @Property(tries = 1000, edgeCases = EdgeCasesMode.MIXIN)
    void quotientsHavePostgresDigits(@ForAll("numerics") BigDecimal dividend, @ForAll("numerics") BigDecimal divisor)
        throws SQLException {
        if (divisor.signum() == 0) {
            return;
        }
        assertThat(PostgresNumeric.divide(dividend, divisor).toPlainString()).as("%s / %s", dividend, divisor)
            .isEqualTo(postgres.divide(dividend, divisor));
    }

    @Provide
    Arbitrary<BigDecimal> numerics() {
        return Combinators.combine(Arbitraries.longs().between(-1_000_000_000_000L, 1_000_000_000_000L)
                .edgeCases(edges -> edges.add(0L, 1L, 3L, 10_000L)),
            Arbitraries.integers().between(0, 10)).as(BigDecimal::valueOf);
    }
}
