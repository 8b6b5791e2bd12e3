package io.kafkamv.service.sql;

import io.kafkamv.compiler.CompileException;

/** The compiler's errors as SQL errors with PostgreSQL's codes. */
final class SqlErrors {

    private SqlErrors() {
    }

    static SqlError from(CompileException e) {
        SqlState state = switch (e.category()) {
            case SYNTAX -> SqlState.SYNTAX_ERROR;
            case UNKNOWN_OBJECT -> SqlState.UNDEFINED_TABLE;
            case UNKNOWN_COLUMN -> SqlState.UNDEFINED_COLUMN;
            case DUPLICATE_OBJECT -> SqlState.DUPLICATE_TABLE;
            case TYPE -> SqlState.DATATYPE_MISMATCH;
            case UNSUPPORTED -> SqlState.FEATURE_NOT_SUPPORTED;
            case INVALID_OPTION -> SqlState.INVALID_PARAMETER_VALUE;
        };
        return SqlError.at(state, e.getMessage(), e.position(), e.hint().orElse(null));
    }
}
