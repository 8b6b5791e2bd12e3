package io.kafkamv.service.pgwire;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads protocol v3 messages from client to server. */
final class FrontendMessages {

    static final int PROTOCOL_3_0 = 196608;
    static final int SSL_REQUEST = 80877103;
    static final int GSSENC_REQUEST = 80877104;
    static final int CANCEL_REQUEST = 80877102;

    /** Larger messages are refused rather than buffered: a client bug must not exhaust the heap. */
    private static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
    /** PostgreSQL's limit for a startup packet (MAX_STARTUP_PACKET_LENGTH): nobody has authenticated yet. */
    static final int MAX_STARTUP_BYTES = 10_000;
    /** PostgreSQL's limit for a message during authentication (PG_MAX_AUTH_TOKEN_LENGTH). */
    static final int MAX_AUTHENTICATION_BYTES = 65_535;

    /** The longest message read: small until the client has authenticated, so a stranger cannot make us allocate. */
    private int maxMessageBytes = MAX_AUTHENTICATION_BYTES;

    /** The first message of a connection: a protocol version or a special request code, and its body. */
    record Startup(int code, ByteBuffer body) {
        Map<String, String> parameters() {
            Map<String, String> parameters = new LinkedHashMap<>();
            while (body.hasRemaining()) {
                String key = cstring(body);
                if (key.isEmpty()) {
                    break;
                }
                parameters.put(key, cstring(body));
            }
            return parameters;
        }
    }

    record Message(char type, ByteBuffer body) {
    }

    private final DataInputStream in;

    FrontendMessages(InputStream stream) {
        this.in = new DataInputStream(new java.io.BufferedInputStream(stream, 64 * 1024));
    }

    /** Whether the client sent bytes that have not been read yet, e.g. ahead of an answer it must wait for. */
    boolean hasUnreadBytes() throws IOException {
        return in.available() > 0;
    }

    Startup readStartup() throws IOException {
        int length = in.readInt();
        checkLength(length, 8, MAX_STARTUP_BYTES);
        int code = in.readInt();
        return new Startup(code, readBody(length - 8));
    }

    /** The next message, or {@code null} when the client closed the connection. */
    Message read() throws IOException {
        int type = in.read();
        if (type < 0) {
            return null;
        }
        int length;
        try {
            length = in.readInt();
        } catch (EOFException e) {
            return null;
        }
        checkLength(length, 4, maxMessageBytes);
        return new Message((char) type, readBody(length - 4));
    }

    static String cstring(ByteBuffer buffer) {
        int start = buffer.position();
        int end = start;
        while (end < buffer.limit() && buffer.get(end) != 0) {
            end++;
        }
        String value = new String(buffer.array(), buffer.arrayOffset() + start, end - start, StandardCharsets.UTF_8);
        buffer.position(Math.min(end + 1, buffer.limit()));
        return value;
    }

    private ByteBuffer readBody(int size) throws IOException {
        byte[] bytes = new byte[size];
        in.readFully(bytes);
        return ByteBuffer.wrap(bytes);
    }

    /** The client has authenticated: its messages may be as long as statements and COPY data need. */
    void authenticated() {
        maxMessageBytes = MAX_MESSAGE_BYTES;
    }

    private static void checkLength(int length, int minimum, int maximum) throws IOException {
        if (length < minimum || length > maximum) {
            throw new IOException("Invalid message length " + length);
        }
    }
}
