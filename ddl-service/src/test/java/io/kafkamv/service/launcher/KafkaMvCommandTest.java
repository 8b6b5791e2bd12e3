package io.kafkamv.service.launcher;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Who may connect, as the command line decides it before anything starts. */
class KafkaMvCommandTest {

    @Test
    void onALoopbackAddressNoPasswordsAreNeeded() {
        assertThatCode(() -> parse().checkAuth()).doesNotThrowAnyException();
    }

    @Test
    void listeningBeyondLoopbackWithoutPasswordsAndTokensIsRefusedUnlessTrustIsAsked() {
        assertThatThrownBy(() -> parse("--bind-address=0.0.0.0").checkAuth())
            .isInstanceOf(CommandLine.ParameterException.class)
            .hasMessageContaining("without --pg-users-file").hasMessageContaining("--auth=trust");
        assertThatThrownBy(() -> parse("--bind-address=0.0.0.0", "--pg-users-file=users").checkAuth())
            .hasMessageContaining("without --rest-tokens-file");
        assertThatCode(() -> parse("--bind-address=0.0.0.0", "--auth=trust").checkAuth()).doesNotThrowAnyException();
        assertThatCode(() -> parse("--bind-address=0.0.0.0", "--pg-users-file=users", "--rest-tokens-file=tokens")
            .checkAuth()).doesNotThrowAnyException();
    }

    @Test
    void passwordModeNeedsBothFilesEvenOnLoopback() {
        assertThatThrownBy(() -> parse("--auth=password", "--pg-users-file=users").checkAuth())
            .hasMessageContaining("--auth=password needs --pg-users-file and --rest-tokens-file");
        assertThatThrownBy(() -> parse("--auth=open").checkAuth()).hasMessageContaining("password, trust or auto");
    }

    private static KafkaMvCommand parse(String... args) {
        KafkaMvCommand command = new KafkaMvCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void theJobStoreTopicIsOneSqlCannotReach() {
        assertThatCode(() -> parse().checkJobStoreTopic()).doesNotThrowAnyException();
        assertThatCode(() -> parse("--job-store-topic=_team_a_jobs").checkJobStoreTopic()).doesNotThrowAnyException();
        assertThatThrownBy(() -> parse("--job-store-topic=team_a_jobs").checkJobStoreTopic())
            .hasMessageContaining("must start with _ (as _team_a_jobs)");
    }
}
