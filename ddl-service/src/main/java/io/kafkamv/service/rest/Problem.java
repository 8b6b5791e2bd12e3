package io.kafkamv.service.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;

/**
 * An RFC 9457 problem detail, carrying the same fields as a PostgreSQL error: SQLSTATE code,
 * message, position and hint.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Problem(String type, String title, int status, String detail, String code, Integer position, String hint,
               String statement) {

    static final String CONTENT_TYPE = "application/problem+json";

    static Problem of(SqlError error, String statement) {
        return new Problem("https://kafka-mv.dev/problems/" + error.state().name().toLowerCase(java.util.Locale.ROOT)
            .replace('_', '-'), title(error.state()), status(error.state()), error.getMessage(), error.state().code(),
            error.position() > 0 ? error.position() : null, error.hint().orElse(null), statement);
    }

    /** Answers with this problem: its status and {@code application/problem+json}. */
    static void respond(io.javalin.http.Context ctx, Problem problem) {
        ctx.status(problem.status()).json(problem).contentType(CONTENT_TYPE);
    }

    static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, detail, null, null, null, null);
    }

    private static int status(SqlState state) {
        return switch (state) {
            case UNDEFINED_TABLE, UNDEFINED_OBJECT -> 404;
            case DUPLICATE_TABLE, DUPLICATE_OBJECT, OBJECT_NOT_IN_PREREQUISITE_STATE, DEPENDENT_OBJECTS_STILL_EXIST -> 409;
            case QUERY_CANCELED -> 499;
            case TOO_MANY_CONNECTIONS, CONFIGURATION_LIMIT_EXCEEDED -> 429;
            case INTERNAL_ERROR -> 500;
            default -> 400;
        };
    }

    private static String title(SqlState state) {
        String words = state.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }
}
