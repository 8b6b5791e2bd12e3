package io.kafkamv.connectors.format;

/** Writes a row as the bytes of a message, in a sink's format. */
@FunctionalInterface
public interface RowEncoder {

    byte[] encode(Object[] row);
}
