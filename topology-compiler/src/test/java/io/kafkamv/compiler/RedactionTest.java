package io.kafkamv.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedactionTest {

    @Test
    void secretOptionValuesAreMaskedWhateverTheKeyLooksLike() {
        String sql = "CREATE SINK s FROM v WITH (connector = 'jdbc', user = 'app', password = 'it''s secret', "
            + "\"schema.registry.password\"='pw2', 'api.token' = 'tok', table = 'password_log')";

        assertThat(Redaction.statement(sql)).isEqualTo("CREATE SINK s FROM v WITH (connector = 'jdbc', user = 'app', "
            + "password = '***', \"schema.registry.password\"='***', 'api.token' = '***', table = 'password_log')");
    }

    @Test
    void keysNamingSecretsAreSecret() {
        assertThat(Redaction.isSecret("schema.registry.password")).isTrue();
        assertThat(Redaction.isSecret("PASSWORD")).isTrue();
        assertThat(Redaction.isSecret("user")).isFalse();
    }
}
