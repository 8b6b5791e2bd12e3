package io.kafkamv.service.error;

/** The PostgreSQL error codes kafka-mv answers with, so clients can react by code, not by text. */
public enum SqlState {
    SYNTAX_ERROR("42601"),
    UNDEFINED_TABLE("42P01"),
    UNDEFINED_COLUMN("42703"),
    DUPLICATE_OBJECT("42710"),
    DUPLICATE_TABLE("42P07"),
    DATATYPE_MISMATCH("42804"),
    WRONG_OBJECT_TYPE("42809"),
    DEPENDENT_OBJECTS_STILL_EXIST("2BP01"),
    NOT_NULL_VIOLATION("23502"),
    NUMERIC_VALUE_OUT_OF_RANGE("22003"),
    INVALID_TEXT_REPRESENTATION("22P02"),
    INVALID_DATETIME_FORMAT("22007"),
    DATETIME_FIELD_OVERFLOW("22008"),
    INVALID_REGULAR_EXPRESSION("2201B"),
    DIVISION_BY_ZERO("22012"),
    UNDEFINED_OBJECT("42704"),
    INVALID_PARAMETER_VALUE("22023"),
    FEATURE_NOT_SUPPORTED("0A000"),
    PROTOCOL_VIOLATION("08P01"),
    INVALID_PASSWORD("28P01"),
    QUERY_CANCELED("57014"),
    INVALID_AUTHORIZATION("28000"),
    OBJECT_NOT_IN_PREREQUISITE_STATE("55000"),
    PROGRAM_LIMIT_EXCEEDED("54000"),
    INTERNAL_ERROR("XX000");

    private final String code;

    SqlState(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }
}
