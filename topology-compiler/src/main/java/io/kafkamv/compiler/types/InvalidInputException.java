package io.kafkamv.compiler.types;

/** Text that is no value of a type, in PostgreSQL's words; the reason says which SQLSTATE PostgreSQL gives it. */
public final class InvalidInputException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public enum Reason {
        /** 22P02: not a value of the type at all. */
        SYNTAX,
        /** 22007: not a date or time at all. */
        DATETIME_SYNTAX,
        /** 22008: a date or time with a field out of range, as month 13. */
        DATETIME_FIELD_OUT_OF_RANGE,
        /** 22003: a number too large for the type. */
        OUT_OF_RANGE,
        /** 22023: a parameter that names nothing the function knows, as a time zone or a unit that does not exist. */
        INVALID_PARAMETER,
        /** 0A000: a parameter PostgreSQL knows but not for this type, as the hour of a date. */
        UNSUPPORTED,
        /** 2201B: a regular expression that does not compile. */
        INVALID_REGULAR_EXPRESSION
    }

    private final Reason reason;

    public InvalidInputException(String message, Reason reason) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
