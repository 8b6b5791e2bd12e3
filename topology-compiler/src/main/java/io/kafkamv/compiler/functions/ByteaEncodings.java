package io.kafkamv.compiler.functions;

import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.compiler.types.PostgresTextInput;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

import static io.kafkamv.compiler.functions.MethodFunction.parameter;

/**
 * PostgreSQL's {@code encode(bytes, format)} and {@code decode(text, format)} in its three formats: {@code hex},
 * {@code base64} (lines of 76 characters, as MIME) and {@code escape} (bytes that are not printable ASCII as
 * {@code \ooo}, a backslash doubled).
 */
public final class ByteaEncodings {

    private static final Base64.Encoder BASE64 = Base64.getMimeEncoder(76, new byte[] {'\n'});

    private ByteaEncodings() {
    }

    static void addTo(SchemaPlus schema) {
        schema.add("encode", MethodFunction.of(ByteaEncodings.class, "encode", SqlTypeName.VARCHAR,
            parameter("bytes", SqlTypeName.VARBINARY), parameter("format", SqlTypeName.VARCHAR)));
        schema.add("decode", MethodFunction.of(ByteaEncodings.class, "decode", SqlTypeName.VARBINARY,
            parameter("string", SqlTypeName.VARCHAR), parameter("format", SqlTypeName.VARCHAR)));
    }

    public static String encode(ByteString bytes, String format) {
        byte[] data = bytes.getBytes();
        return switch (format(format)) {
            case "hex" -> HexFormat.of().formatHex(data);
            // PostgreSQL ends a last full line of 76 characters with a newline too.
            case "base64" -> BASE64.encodeToString(data) + (data.length > 0 && data.length % 57 == 0 ? "\n" : "");
            default -> escape(data);
        };
    }

    public static ByteString decode(String text, String format) {
        return new ByteString(switch (format(format)) {
            case "hex" -> fromHex(text);
            case "base64" -> fromBase64(text);
            default -> PostgresTextInput.byteaEscape(text);
        });
    }

    private static String format(String format) {
        String name = format.toLowerCase(Locale.ROOT);
        if (!name.equals("hex") && !name.equals("base64") && !name.equals("escape")) {
            throw new InvalidInputException("unrecognized encoding: \"" + format + "\"",
                InvalidInputException.Reason.INVALID_PARAMETER);
        }
        return name;
    }

    private static String escape(byte[] data) {
        StringBuilder text = new StringBuilder(data.length);
        for (byte b : data) {
            int value = b & 0xff;
            if (value == '\\') {
                text.append("\\\\");
            } else if (value == 0 || value >= 0x80) {
                text.append('\\').append(String.format("%03o", value));
            } else {
                text.append((char) value);
            }
        }
        return text.toString();
    }

    /** PostgreSQL's whitespace in hex and base64 input: ASCII only. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /** Pairs of hex digits; whitespace between pairs is skipped, as PostgreSQL does. */
    private static byte[] fromHex(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length() / 2);
        int i = 0;
        while (i < text.length()) {
            char high = text.charAt(i);
            if (isSpace(high)) {
                i++;
                continue;
            }
            if (i + 1 >= text.length()) {
                hexDigit(high);
                throw new InvalidInputException("invalid hexadecimal data: odd number of digits",
                    InvalidInputException.Reason.INVALID_PARAMETER);
            }
            bytes.write(hexDigit(high) << 4 | hexDigit(text.charAt(i + 1)));
            i += 2;
        }
        return bytes.toByteArray();
    }

    private static int hexDigit(char c) {
        int digit = c < 128 ? Character.digit(c, 16) : -1;
        if (digit < 0) {
            throw new InvalidInputException("invalid hexadecimal digit: \"" + c + "\"",
                InvalidInputException.Reason.INVALID_PARAMETER);
        }
        return digit;
    }

    /** Base64 with whitespace anywhere; any other character outside the alphabet, or a missing "=", is an error. */
    private static byte[] fromBase64(String text) {
        StringBuilder digits = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isSpace(c)) {
                continue;
            }
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/'
                || c == '=')) {
                throw new InvalidInputException("invalid symbol \"" + c + "\" found while decoding base64 sequence",
                    InvalidInputException.Reason.INVALID_PARAMETER);
            }
            digits.append(c);
        }
        try {
            if (digits.length() % 4 != 0) {
                throw new IllegalArgumentException("not whole groups of four");
            }
            return Base64.getDecoder().decode(digits.toString());
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("invalid base64 end sequence", InvalidInputException.Reason.INVALID_PARAMETER);
        }
    }
}
