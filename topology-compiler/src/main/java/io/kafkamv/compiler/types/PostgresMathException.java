package io.kafkamv.compiler.types;

/** A mathematical function given an argument outside its domain, or a result out of range, in PostgreSQL's words. */
public final class PostgresMathException extends ArithmeticException {

    private static final long serialVersionUID = 1L;

    public enum Reason {
        /** 2201E: a logarithm of zero or of a negative number. */
        LOGARITHM,
        /** 2201F: a square root of a negative number, zero to a negative power, and the like. */
        POWER,
        /** 22003: a result too large for a double. */
        OUT_OF_RANGE
    }

    private final Reason reason;

    public PostgresMathException(String message, Reason reason) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
