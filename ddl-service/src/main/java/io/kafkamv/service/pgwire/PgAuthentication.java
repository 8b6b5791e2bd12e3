package io.kafkamv.service.pgwire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Who may connect: everyone (trust, the default), or the users of a users file with their
 * passwords, checked with SCRAM-SHA-256 as PostgreSQL does. The file has one {@code user:password}
 * line per user; only the SCRAM verifier of each password is kept in memory.
 */
public final class PgAuthentication {

    private final Map<String, ScramSha256.Verifier> users;

    private PgAuthentication(Map<String, ScramSha256.Verifier> users) {
        this.users = users;
    }

    public static PgAuthentication trust() {
        return new PgAuthentication(null);
    }

    public static PgAuthentication fromUsersFile(Path file) throws IOException {
        Map<String, ScramSha256.Verifier> users = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            int colon = trimmed.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("users file " + file + ": a line is not user:password");
            }
            users.put(trimmed.substring(0, colon), ScramSha256.Verifier.of(trimmed.substring(colon + 1)));
        }
        if (users.isEmpty()) {
            throw new IllegalArgumentException("users file " + file + " has no users");
        }
        return new PgAuthentication(Map.copyOf(users));
    }

    boolean required() {
        return users != null;
    }

    /**
     * Runs the SCRAM exchange with the client; true when it proved the user's password. A refused
     * client learns only that authentication failed, not whether the user exists.
     */
    boolean authenticate(String user, FrontendMessages in, BackendMessages out) throws IOException {
        out.authenticationSasl(ScramSha256.MECHANISM);
        out.flush();
        FrontendMessages.Message initial = in.read();
        if (initial == null || initial.type() != 'p') {
            return false;
        }
        ByteBuffer body = initial.body();
        String mechanism = FrontendMessages.cstring(body);
        int length = body.getInt();
        if (!ScramSha256.MECHANISM.equals(mechanism) || length < 0 || length > body.remaining()) {
            return false;
        }
        byte[] clientFirst = new byte[length];
        body.get(clientFirst);
        // An unknown user goes through the same exchange with a verifier no password matches.
        ScramSha256.Verifier verifier = Optional.ofNullable(users.get(user))
            .orElseGet(() -> ScramSha256.Verifier.of(java.util.UUID.randomUUID().toString()));
        ScramSha256.Exchange exchange;
        try {
            exchange = new ScramSha256.Exchange(verifier, new String(clientFirst, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return false;
        }
        out.authenticationSaslContinue(exchange.serverFirst().getBytes(StandardCharsets.UTF_8));
        out.flush();
        FrontendMessages.Message response = in.read();
        if (response == null || response.type() != 'p') {
            return false;
        }
        ByteBuffer proof = response.body();
        byte[] clientFinal = new byte[proof.remaining()];
        proof.get(clientFinal);
        String serverFinal = exchange.serverFinal(new String(clientFinal, StandardCharsets.UTF_8));
        if (serverFinal == null || !users.containsKey(user)) {
            return false;
        }
        out.authenticationSaslFinal(serverFinal.getBytes(StandardCharsets.UTF_8));
        return true;
    }
}
