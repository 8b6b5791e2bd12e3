package io.kafkamv.compiler.functions;

import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

import io.kafkamv.compiler.types.InvalidInputException;
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
            case "base64" -> BASE64.encodeToString(data);
            default -> escape(data);
        };
    }

    public static ByteString decode(String text, String format) {
        return new ByteString(switch (format(format)) {
            case "hex" -> fromHex(text);
            case "base64" -> fromBase64(text);
            default -> unescape(text);
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

    private static byte[] unescape(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                bytes.write(c);
            } else if (i + 1 < text.length() && text.charAt(i + 1) == '\\') {
                bytes.write('\\');
                i++;
            } else if (i + 3 < text.length() && isOctal(text, i + 1) && isOctal(text, i + 2) && isOctal(text, i + 3)) {
                bytes.write(Integer.parseInt(text.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                throw new InvalidInputException("invalid input syntax for type bytea",
                    InvalidInputException.Reason.SYNTAX);
            }
        }
        return bytes.toByteArray();
    }

    private static boolean isOctal(String text, int at) {
        char c = text.charAt(at);
        return c >= '0' && c <= '7';
    }

    /** Pairs of hex digits; whitespace between pairs is skipped, as PostgreSQL does. */
    private static byte[] fromHex(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length() / 2);
        int i = 0;
        while (i < text.length()) {
            char high = text.charAt(i);
            if (Character.isWhitespace(high)) {
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
        int digit = Character.digit(c, 16);
        if (digit < 0) {
            throw new InvalidInputException("invalid hexadecimal digit: \"" + c + "\"",
                InvalidInputException.Reason.INVALID_PARAMETER);
        }
        return digit;
    }

    private static byte[] fromBase64(String text) {
        try {
            return Base64.getMimeDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("invalid base64 end sequence", InvalidInputException.Reason.INVALID_PARAMETER);
        }
    }
}
