package io.kafkamv.service.pgwire;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.kafkamv.compiler.types.PostgresTextOutput;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.result.PgType;
import io.kafkamv.service.result.ResultColumn;

/**
 * Writes protocol v3 messages from server to client. Messages are buffered until {@link #flush()},
 * so a whole result goes out in as few packets as possible.
 */
final class BackendMessages {

    private final DataOutputStream out;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(256);
    private final DataOutputStream bodyOut = new DataOutputStream(body);

    BackendMessages(OutputStream stream) {
        this.out = new DataOutputStream(new java.io.BufferedOutputStream(stream, 64 * 1024));
    }

    void sslAccepted() throws IOException {
        out.writeByte('S');
        out.flush();
    }

    void sslRefused() throws IOException {
        out.writeByte('N');
        out.flush();
    }

    void authenticationOk() throws IOException {
        bodyOut.writeInt(0);
        send('R');
    }

    void authenticationSasl(String mechanism) throws IOException {
        bodyOut.writeInt(10);
        cstring(mechanism);
        bodyOut.writeByte(0);
        send('R');
    }

    void authenticationSaslContinue(byte[] data) throws IOException {
        bodyOut.writeInt(11);
        bodyOut.write(data);
        send('R');
    }

    void authenticationSaslFinal(byte[] data) throws IOException {
        bodyOut.writeInt(12);
        bodyOut.write(data);
        send('R');
    }

    void parameterStatus(String name, String value) throws IOException {
        cstring(name);
        cstring(value);
        send('S');
    }

    void backendKeyData(int processId, int secretKey) throws IOException {
        bodyOut.writeInt(processId);
        bodyOut.writeInt(secretKey);
        send('K');
    }

    void readyForQuery(char transactionStatus) throws IOException {
        bodyOut.writeByte(transactionStatus);
        send('Z');
    }

    void rowDescription(List<ResultColumn> columns) throws IOException {
        rowDescription(columns, new short[0]);
    }

    /** Describes result columns; {@code formats} as the client asked in Bind (none: all text). */
    void rowDescription(List<ResultColumn> columns, short[] formats) throws IOException {
        bodyOut.writeShort(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            ResultColumn column = columns.get(i);
            PgType type = PgType.of(column.type());
            cstring(column.name());
            bodyOut.writeInt(0);          // not a column of a table
            bodyOut.writeShort(0);        // attribute number
            bodyOut.writeInt(type.oid());
            bodyOut.writeShort(type.size());
            bodyOut.writeInt(-1);         // type modifier
            bodyOut.writeShort(binary(formats, i, type) ? 1 : 0);
        }
        send('T');
    }

    void dataRow(List<Object> values, List<ResultColumn> columns, short[] formats) throws IOException {
        bodyOut.writeShort(values.size());
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            byte[] bytes;
            if (value == null) {
                bytes = null;
            } else if (columns != null && binary(formats, i, PgType.of(columns.get(i).type()))) {
                bytes = PgBinaryFormat.encode(value, PgType.of(columns.get(i).type()));
            } else {
                bytes = PostgresTextOutput.format(value, columns == null ? null : columns.get(i).type())
                    .getBytes(StandardCharsets.UTF_8);
            }
            if (bytes == null) {
                bodyOut.writeInt(-1);
            } else {
                bodyOut.writeInt(bytes.length);
                bodyOut.write(bytes);
            }
        }
        send('D');
    }

    /** Binary when the client asked for it (one code for all columns, or one per column) and we can. */
    static boolean binary(short[] formats, int column, PgType type) {
        short format = formats.length == 0 ? 0 : formats.length == 1 ? formats[0] : formats[column];
        return format == 1 && PgBinaryFormat.supports(type);
    }

    /** CopyInResponse or CopyOutResponse: the copy is in text form, every column too. */
    void copyResponse(char type, int columnCount) throws IOException {
        bodyOut.writeByte(0);
        bodyOut.writeShort(columnCount);
        for (int i = 0; i < columnCount; i++) {
            bodyOut.writeShort(0);
        }
        send(type);
    }

    void copyData(byte[] data) throws IOException {
        bodyOut.write(data);
        send('d');
    }

    void copyDone() throws IOException {
        send('c');
    }

    void parseComplete() throws IOException {
        send('1');
    }

    void bindComplete() throws IOException {
        send('2');
    }

    void closeComplete() throws IOException {
        send('3');
    }

    void noData() throws IOException {
        send('n');
    }

    void parameterDescription(int[] typeOids) throws IOException {
        bodyOut.writeShort(typeOids.length);
        for (int oid : typeOids) {
            bodyOut.writeInt(oid);
        }
        send('t');
    }

    void commandComplete(String tag) throws IOException {
        cstring(tag);
        send('C');
    }

    void emptyQueryResponse() throws IOException {
        send('I');
    }

    void errorResponse(SqlError error) throws IOException {
        errorResponse(error, "ERROR");
    }

    /** An error that ends the connection, as PostgreSQL reports one (too many clients). */
    void fatalResponse(SqlError error) throws IOException {
        errorResponse(error, "FATAL");
    }

    private void errorResponse(SqlError error, String severity) throws IOException {
        field('S', severity);
        field('V', severity);
        field('C', error.state().code());
        field('M', error.getMessage() == null ? "unknown error" : error.getMessage());
        if (error.position() > 0) {
            field('P', String.valueOf(error.position()));
        }
        if (error.detail().isPresent()) {
            field('D', error.detail().get());
        }
        if (error.hint().isPresent()) {
            field('H', error.hint().get());
        }
        if (error.context().isPresent()) {
            field('W', error.context().get());
        }
        bodyOut.writeByte(0);
        send('E');
    }

    void notice(String message) throws IOException {
        field('S', "NOTICE");
        field('V', "NOTICE");
        field('C', "00000");
        field('M', message);
        bodyOut.writeByte(0);
        send('N');
    }

    void flush() throws IOException {
        out.flush();
    }

    private void field(char code, String value) throws IOException {
        bodyOut.writeByte(code);
        cstring(value);
    }

    private void cstring(String value) throws IOException {
        bodyOut.write(value.getBytes(StandardCharsets.UTF_8));
        bodyOut.writeByte(0);
    }

    private void send(char type) throws IOException {
        out.writeByte(type);
        out.writeInt(body.size() + 4);
        body.writeTo(out);
        body.reset();
    }
}
