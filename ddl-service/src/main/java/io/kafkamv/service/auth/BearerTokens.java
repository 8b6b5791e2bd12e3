package io.kafkamv.service.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Who may use the REST API: the bearer tokens from a file, each with the name of its holder. Without
 * tokens the API is open, as it is by default on localhost.
 */
public final class BearerTokens {

    private static final String PREFIX = "Bearer ";

    /** Token to holder. */
    private final Map<String, String> holders;
    /** The file's first token, which instances use between themselves. */
    private final Optional<String> first;

    private BearerTokens(Map<String, String> holders) {
        this.holders = Map.copyOf(holders);
        this.first = holders.keySet().stream().findFirst();
    }

    public static BearerTokens open() {
        return new BearerTokens(Map.of());
    }

    /** One token per line, as {@code holder:token} or just {@code token}; blank lines and {@code #} comments are skipped. */
    public static BearerTokens fromFile(Path file) {
        Map<String, String> holders = new LinkedHashMap<>();
        try {
            int line = 0;
            for (String text : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                line++;
                String entry = text.strip();
                if (entry.isEmpty() || entry.startsWith("#")) {
                    continue;
                }
                int colon = entry.indexOf(':');
                String token = colon < 0 ? entry : entry.substring(colon + 1).strip();
                if (token.length() < 16) {
                    throw new IllegalArgumentException("token on line " + line + " of " + file
                        + " is shorter than 16 characters");
                }
                holders.put(token, colon < 0 ? "token " + line : entry.substring(0, colon).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the REST tokens file " + file, e);
        }
        if (holders.isEmpty()) {
            throw new IllegalArgumentException("the REST tokens file " + file + " has no tokens");
        }
        return new BearerTokens(holders);
    }

    public boolean required() {
        return !holders.isEmpty();
    }

    /** Who holds the token of an {@code Authorization: Bearer ...} header; empty when it is missing or unknown. */
    public Optional<String> holder(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return Optional.empty();
        }
        byte[] presented = authorization.substring(PREFIX.length()).strip().getBytes(StandardCharsets.UTF_8);
        String holder = null;
        // Every token compared in constant time, and all of them, so timing tells nothing about which is close.
        for (Map.Entry<String, String> token : holders.entrySet()) {
            if (MessageDigest.isEqual(presented, token.getKey().getBytes(StandardCharsets.UTF_8))) {
                holder = token.getValue();
            }
        }
        return Optional.ofNullable(holder);
    }

    /** The header one instance sends another's internal API with; empty when the API is open. */
    public Optional<String> authorization() {
        return first.map(token -> PREFIX + token);
    }
}
