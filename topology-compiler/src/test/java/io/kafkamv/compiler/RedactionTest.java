package io.kafkamv.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import io.kafkamv.compiler.parser.Redaction;
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
    void everyFormOfValueTheGrammarTakesIsMasked() {
        assertThat(Redaction.statement("WITH (password = \"s3cret\", token = hunter2, secret = 12345, "
            + "password2 = N'x', api_secret = U&'y')"))
            .isEqualTo("WITH (password = '***', token = '***', secret = '***', password2 = '***', api_secret = '***')");
    }

    @Test
    void aSecretInsideAValueIsMasked() {
        String url = "jdbc:postgresql://db/app?user=app&password=p4ss&ssl=true";

        assertThat(Redaction.value(url)).isEqualTo("jdbc:postgresql://db/app?user=app&password=***&ssl=true");
        assertThat(Redaction.statement("WITH (url = '" + url + "')")).doesNotContain("p4ss");
    }

    @Test
    void keysNamingSecretsAreSecret() {
        assertThat(Redaction.isSecret("schema.registry.password")).isTrue();
        assertThat(Redaction.isSecret("PASSWORD")).isTrue();
        assertThat(Redaction.isSecret("user")).isFalse();
    }
}
