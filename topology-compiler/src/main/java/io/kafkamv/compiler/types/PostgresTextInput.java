package io.kafkamv.compiler.types;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.LocalTime;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kafkamv.connectors.schema.SqlType;

/**
 * Text read as a value of a type, as PostgreSQL reads it ({@code '42'::int}, {@code 'yes'::boolean}), and
 * written the way Calcite reads it; text PostgreSQL refuses is refused with its words. Where Calcite and
 * PostgreSQL read a text alike, or the type is not one of these, the text stays as it is.
 */
public final class PostgresTextInput {

    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern NUMERIC = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{2})(?::(\\d{2})(\\.\\d{1,9})?)?");
    private static final List<String> TRUE = List.of("true", "yes", "on", "1");
    private static final List<String> FALSE = List.of("false", "no", "off", "0");
    private static final ObjectMapper JSON = new ObjectMapper();

    private PostgresTextInput() {
    }

    /**
     * The text in the form Calcite reads for {@code type}, or empty if it needs no change.
     *
     * @throws InvalidInputException if PostgreSQL refuses the text as a value of the type
     */
    public static Optional<String> toCalcite(String text, SqlType type) {
        if (PostgresDatetimes.reads(type)) {
            return Optional.of(PostgresDatetimes.toCalcite(text, type));
        }
        return switch (type) {
            case SMALLINT -> Optional.of(integer(text, type, Short.MIN_VALUE, Short.MAX_VALUE));
            case INTEGER -> Optional.of(integer(text, type, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case BIGINT -> Optional.of(integer(text, type, Long.MIN_VALUE, Long.MAX_VALUE));
            case DECIMAL -> numeric(text);
            case BOOLEAN -> Optional.of(Boolean.toString(bool(text)));
            case TIME -> Optional.of(time(text));
            case JSONB -> {
                json(text);
                yield Optional.empty();
            }
            default -> Optional.empty();
        };
    }

    /**
     * PostgreSQL's bytea input: hex ({@code \\x0102}, what clients send) or the escape form, where {@code \\\\} is a
     * backslash and {@code \\ooo} an octal byte; any other character is its own byte.
     */
    public static byte[] bytea(String text) {
        if (text.startsWith("\\x")) {
            String hex = text.substring(2).replaceAll("\\s", "");
            if (hex.length() % 2 != 0 || !hex.matches("[0-9a-fA-F]*")) {
                throw new InvalidInputException("invalid hexadecimal data: \"" + text + "\"", InvalidInputException.Reason.SYNTAX);
            }
            return java.util.HexFormat.of().parseHex(hex);
        }
        return byteaEscape(text);
    }

    /**
     * bytea's escape form: the text's UTF-8 bytes, where {@code \\\\} is a backslash and {@code \\ooo} (first digit 0
     * to 3) an octal byte; what {@code decode(text, 'escape')} reads too.
     */
    public static byte[] byteaEscape(String text) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        byte[] raw = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] != '\\') {
                bytes.write(raw[i]);
            } else if (i + 1 < raw.length && raw[i + 1] == '\\') {
                bytes.write('\\');
                i++;
            } else if (i + 3 < raw.length && raw[i + 1] >= '0' && raw[i + 1] <= '3' && isOctal(raw[i + 2])
                && isOctal(raw[i + 3])) {
                bytes.write((raw[i + 1] - '0') * 64 + (raw[i + 2] - '0') * 8 + (raw[i + 3] - '0'));
                i += 3;
            } else {
                throw new InvalidInputException("invalid input syntax for type bytea", InvalidInputException.Reason.SYNTAX);
            }
        }
        return bytes.toByteArray();
    }

    private static boolean isOctal(byte b) {
        return b >= '0' && b <= '7';
    }

    /**
     * A one-dimensional text[] written as PostgreSQL writes it, {@code {a,"b c",NULL}}: elements between braces and
     * commas, blanks around them dropped, double quotes and backslashes to keep any character, an unquoted NULL
     * for a null element.
     */
    public static List<String> textArray(String text) {
        String trimmed = text.strip();
        if (trimmed.length() < 2 || trimmed.charAt(0) != '{' || trimmed.charAt(trimmed.length() - 1) != '}') {
            throw malformedArray(text);
        }
        List<String> elements = new java.util.ArrayList<>();
        String body = trimmed.substring(1, trimmed.length() - 1);
        if (body.isBlank()) {
            return elements;
        }
        StringBuilder element = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\') {
                if (++i == body.length()) {
                    throw malformedArray(text);
                }
                element.append(body.charAt(i));
            } else if (c == '"') {
                quoted = !quoted;
                wasQuoted = true;
            } else if (!quoted && Character.isWhitespace(c) && (element.isEmpty() || wasQuoted)) {
                continue;
            } else if (c == ',' && !quoted) {
                elements.add(arrayElement(element, wasQuoted, text));
                element.setLength(0);
                wasQuoted = false;
            } else if (c == '{' && !quoted || c == '}' && !quoted) {
                throw malformedArray(text);
            } else {
                element.append(c);
            }
        }
        if (quoted) {
            throw malformedArray(text);
        }
        elements.add(arrayElement(element, wasQuoted, text));
        return elements;
    }

    private static String arrayElement(StringBuilder element, boolean quoted, String text) {
        if (quoted) {
            return element.toString();
        }
        String value = element.toString().strip();
        if (value.isEmpty()) {
            throw malformedArray(text);
        }
        return value.equalsIgnoreCase("NULL") ? null : value;
    }

    private static InvalidInputException malformedArray(String text) {
        return new InvalidInputException("malformed array literal: \"" + text + "\"", InvalidInputException.Reason.SYNTAX);
    }

    /** PostgreSQL's booleans: true, yes, on, 1 and false, no, off, 0, or a prefix that says which. */
    public static boolean bool(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        boolean isTrue = !value.isEmpty() && TRUE.stream().anyMatch(word -> word.startsWith(value));
        boolean isFalse = !value.isEmpty() && FALSE.stream().anyMatch(word -> word.startsWith(value));
        if (isTrue == isFalse) {
            throw syntax(text, SqlType.BOOLEAN);
        }
        return isTrue;
    }

    private static String integer(String text, SqlType type, long min, long max) {
        String value = text.trim();
        if (!INTEGER.matcher(value).matches()) {
            throw syntax(text, type);
        }
        BigInteger number = new BigInteger(value.startsWith("+") ? value.substring(1) : value);
        if (number.compareTo(BigInteger.valueOf(min)) < 0 || number.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new InvalidInputException("value \"" + text + "\" is out of range for type " + type.postgresName(),
                InvalidInputException.Reason.OUT_OF_RANGE);
        }
        return number.toString();
    }

    /** A numeric keeps the digits it was written with ('1.50' is 1.50); NaN and infinities are left to Calcite. */
    private static Optional<String> numeric(String text) {
        String value = text.trim();
        if (value.equalsIgnoreCase("nan") || value.toLowerCase(Locale.ROOT).matches("[+-]?inf(inity)?")) {
            return Optional.empty();
        }
        if (!NUMERIC.matcher(value).matches()) {
            throw syntax(text, SqlType.DECIMAL);
        }
        BigDecimal number = new BigDecimal(value.startsWith("+") ? value.substring(1) : value);
        return Optional.of((number.scale() < 0 ? number.setScale(0) : number).toPlainString());
    }

    private static String time(String text) {
        Matcher m = TIME.matcher(text.trim());
        if (!m.matches()) {
            throw new InvalidInputException("invalid input syntax for type time: \"" + text + "\"",
                InvalidInputException.Reason.DATETIME_SYNTAX);
        }
        try {
            LocalTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                m.group(3) == null ? 0 : Integer.parseInt(m.group(3)));
        } catch (DateTimeException e) {
            throw new InvalidInputException("date/time field value out of range: \"" + text + "\"",
                InvalidInputException.Reason.DATETIME_FIELD_OUT_OF_RANGE);
        }
        return m.group(1) + ":" + m.group(2) + ":" + (m.group(3) == null ? "00" : m.group(3))
            + (m.group(4) == null ? "" : m.group(4));
    }

    private static void json(String text) {
        try {
            JSON.readTree(text);
        } catch (IOException e) {
            throw new InvalidInputException("invalid input syntax for type json", InvalidInputException.Reason.SYNTAX);
        }
    }

    private static InvalidInputException syntax(String text, SqlType type) {
        return new InvalidInputException("invalid input syntax for type " + type.postgresName() + ": \"" + text + "\"",
            InvalidInputException.Reason.SYNTAX);
    }
}
