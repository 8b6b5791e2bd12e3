package io.kafkamv.service.pgwire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server side of SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL speaks it, on the JDK's own
 * PBKDF2 and HMAC. A user's password is kept only as its stored and server keys, with a salt and an
 * iteration count, the way PostgreSQL's {@code pg_authid} keeps it.
 */
final class ScramSha256 {

    static final String MECHANISM = "SCRAM-SHA-256";
    private static final int ITERATIONS = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What is kept of a password: enough to check a proof, not enough to make one. */
    record Verifier(byte[] salt, int iterations, byte[] storedKey, byte[] serverKey) {

        static Verifier of(String password) {
            byte[] salt = new byte[16];
            RANDOM.nextBytes(salt);
            byte[] salted = saltedPassword(password, salt, ITERATIONS);
            return new Verifier(salt, ITERATIONS, sha256(hmac(salted, "Client Key")), hmac(salted, "Server Key"));
        }
    }

    /** One exchange: the client's first message in, the server's first message out, then the proof. */
    static final class Exchange {
        private final Verifier verifier;
        private final String clientFirstBare;
        private final String nonce;
        private final String serverFirst;

        Exchange(Verifier verifier, String clientFirstMessage) {
            if (!clientFirstMessage.startsWith("n,") && !clientFirstMessage.startsWith("y,")) {
                throw new IllegalArgumentException("channel binding is not supported");
            }
            this.verifier = verifier;
            this.clientFirstBare = clientFirstMessage.substring(clientFirstMessage.indexOf(',', 2) + 1);
            String clientNonce = attributes(clientFirstBare).get("r");
            if (clientNonce == null || clientNonce.isEmpty()) {
                throw new IllegalArgumentException("no client nonce");
            }
            byte[] serverNonce = new byte[18];
            RANDOM.nextBytes(serverNonce);
            this.nonce = clientNonce + Base64.getEncoder().encodeToString(serverNonce);
            this.serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(verifier.salt())
                + ",i=" + verifier.iterations();
        }

        String serverFirst() {
            return serverFirst;
        }

        /** The server's final message when the client's proof is right, or null when it is not. */
        String serverFinal(String clientFinalMessage) {
            Map<String, String> attributes = attributes(clientFinalMessage);
            String proof = attributes.get("p");
            if (proof == null || !nonce.equals(attributes.get("r"))) {
                return null;
            }
            String withoutProof = clientFinalMessage.substring(0, clientFinalMessage.lastIndexOf(",p="));
            String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
            byte[] clientSignature = hmac(verifier.storedKey(), authMessage);
            byte[] clientKey = Base64.getDecoder().decode(proof);
            if (clientKey.length != clientSignature.length) {
                return null;
            }
            for (int i = 0; i < clientKey.length; i++) {
                clientKey[i] ^= clientSignature[i];
            }
            if (!MessageDigest.isEqual(sha256(clientKey), verifier.storedKey())) {
                return null;
            }
            return "v=" + Base64.getEncoder().encodeToString(hmac(verifier.serverKey(), authMessage));
        }
    }

    private ScramSha256() {
    }

    private static Map<String, String> attributes(String message) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (String part : message.split(",")) {
            int equals = part.indexOf('=');
            if (equals == 1) {
                attributes.putIfAbsent(part.substring(0, 1), part.substring(2));
            }
        }
        return attributes;
    }

    private static byte[] saltedPassword(String password, byte[] salt, int iterations) {
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                .generateSecret(new PBEKeySpec(password.toCharArray(), salt, iterations, 256)).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is missing from this JVM", e);
        }
    }

    private static byte[] hmac(byte[] key, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
