package io.kafkamv.service.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;

import io.kafkamv.service.error.SqlError;
import org.junit.jupiter.api.Test;

class DeallocateTest {

    private final Set<String> prepared = new HashSet<>(Set.of("_pg3_0", "Mixed", "s1"));
    private final PreparedStatements statements = new PreparedStatements() {
        @Override
        public boolean deallocate(String name) {
            return prepared.remove(name);
        }

        @Override
        public void deallocateAll() {
            prepared.clear();
        }
    };

    @Test
    void dropsOneStatementByItsNameAsPostgresFoldsIt() {
        assertThat(Deallocate.run(statements, "DEALLOCATE _PG3_0").commandTag()).isEqualTo("DEALLOCATE");
        assertThat(Deallocate.run(statements, "deallocate prepare \"Mixed\";").commandTag()).isEqualTo("DEALLOCATE");
        assertThat(prepared).containsExactly("s1");
    }

    @Test
    void dropsAll() {
        assertThat(Deallocate.run(statements, " DEALLOCATE ALL").commandTag()).isEqualTo("DEALLOCATE ALL");
        assertThat(prepared).isEmpty();
    }

    @Test
    void anUnknownNameIsPostgresError() {
        assertThatThrownBy(() -> Deallocate.run(statements, "DEALLOCATE nope"))
            .isInstanceOfSatisfying(SqlError.class, e -> {
                assertThat(e.state().code()).isEqualTo("26000");
                assertThat(e.getMessage()).isEqualTo("prepared statement \"nope\" does not exist");
            });
        assertThat(Deallocate.handles("DEALLOCATE")).isFalse();
        assertThat(Deallocate.handles("SELECT 'DEALLOCATE ALL'")).isFalse();
    }
}
