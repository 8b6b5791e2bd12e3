package io.kafkamv.service.pgwire;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.compiler.types.InvalidInputException;
import io.kafkamv.compiler.types.PostgresTextInput;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;

/**
 * Bound parameters of the extended query protocol, written into the statement as SQL literals.
 * The statement is then run like any other, so both protocols share one execution path.
 */
final class PgParameters {

    private static final int BOOL = 16;
    private static final int INT8 = 20;
    private static final int INT2 = 21;
    private static final int INT4 = 23;
    private static final int OID = 26;
    private static final int FLOAT4 = 700;
    private static final int FLOAT8 = 701;
    private static final int NUMERIC = 1700;
    private static final int BYTEA = 17;
    private static final int DATE = 1082;
    private static final int TIME = 1083;
    private static final int TIMESTAMP = 1114;
    private static final int TIMESTAMPTZ = 1184;
    private static final int JSONB = 3802;
    private static final int INTERVAL = 1186;
    private static final LocalDateTime POSTGRES_EPOCH = LocalDateTime.of(2000, 1, 1, 0, 0);

    private PgParameters() {
    }

    /** A parameter's value as SQL literal text, from its text or binary wire form. */
    static String literal(byte[] value, int typeOid, boolean binary) {
        if (value == null) {
            return "NULL";
        }
        if (binary) {
            return binaryLiteral(value, typeOid);
        }
        String text = new String(value, StandardCharsets.UTF_8);
        return switch (typeOid) {
            case INT2, INT4, INT8, OID, NUMERIC -> numeric(text);
            // Typed: a float assigned to an integer rounds half to even and to a numeric keeps 15 digits, as in
            // PostgreSQL; a bare 2.5 would be a numeric, which rounds half away from zero.
            case FLOAT4 -> "CAST(" + numeric(text) + " AS REAL)";
            case FLOAT8 -> "CAST(" + numeric(text) + " AS DOUBLE)";
            case BOOL -> text.startsWith("t") || text.equalsIgnoreCase("true") ? "TRUE" : "FALSE";
            case BYTEA -> binaryString(bytea(text));
            // Typed, so that it compares with an interval column as one (a string would not).
            case INTERVAL -> "INTERVAL " + quote(text);
            default -> quote(text);
        };
    }

    private static String binaryLiteral(byte[] value, int typeOid) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        return switch (typeOid) {
            case INT2 -> String.valueOf(buffer.getShort());
            case INT4, OID -> String.valueOf(buffer.getInt());
            case INT8 -> String.valueOf(buffer.getLong());
            case FLOAT4 -> typedFloat(buffer.getFloat(), "REAL");
            case FLOAT8 -> typedFloat(buffer.getDouble(), "DOUBLE");
            case BOOL -> value[0] != 0 ? "TRUE" : "FALSE";
            case NUMERIC -> PgBinaryNumeric.decode(buffer).toPlainString();
            case DATE -> quote(POSTGRES_EPOCH.toLocalDate().plusDays(buffer.getInt()).toString());
            case TIME -> quote(LocalTime.ofNanoOfDay(buffer.getLong() * 1000).toString());
            case TIMESTAMP -> quote(POSTGRES_EPOCH.plus(buffer.getLong(), ChronoUnit.MICROS).toString());
            case TIMESTAMPTZ -> quote(POSTGRES_EPOCH.plus(buffer.getLong(), ChronoUnit.MICROS) + "Z");
            case JSONB -> quote(new String(value, 1, value.length - 1, StandardCharsets.UTF_8));
            case BYTEA -> binaryString(value);
            case INTERVAL -> interval(buffer.getLong(), buffer.getInt(), buffer.getInt());
            default -> quote(new String(value, StandardCharsets.UTF_8));
        };
    }

    /** PostgreSQL's binary interval: microseconds of the time, days, months. */
    private static String interval(long micros, int days, int months) {
        return "INTERVAL " + quote(months + " mons " + days + " days "
            + java.math.BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString() + " seconds");
    }

    private static byte[] bytea(String text) {
        try {
            return PostgresTextInput.bytea(text);
        } catch (InvalidInputException e) {
            throw SqlError.of(SqlState.INVALID_TEXT_REPRESENTATION, e.getMessage());
        }
    }

    private static String binaryString(byte[] value) {
        return "X'" + java.util.HexFormat.of().formatHex(value) + "'";
    }

    private static String numeric(String text) {
        String trimmed = text.trim();
        if (!trimmed.matches("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) {
            throw SqlError.of(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for a number: \"" + text + "\"");
        }
        return trimmed;
    }

    /** A float as a typed constant; NaN and the infinities as the text Calcite's cast reads. */
    private static String typedFloat(double value, String type) {
        String number = String.valueOf(type.equals("REAL") ? (Object) (float) value : (Object) value);
        return "CAST(" + (Double.isFinite(value) ? number : quote(number)) + " AS " + type + ")";
    }

    private static String quote(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    /**
     * Replaces {@code $1}, {@code $2}, ... outside quotes and comments with the literals. A
     * parameter that was not bound is an error the client made, not a statement to run.
     */
    static String substitute(String sql, List<String> literals) {
        return replace(sql, (index, position) -> {
            if (index < 1 || index > literals.size()) {
                throw SqlError.at(SqlState.PROTOCOL_VIOLATION, "there is no parameter $" + index, position, null);
            }
            return literals.get(index - 1);
        });
    }

    /** A statement's parameters: which {@code $n} each place holds, in order, and the statement with a {@code ?} in each. */
    record Placeholders(String jdbcSql, List<Integer> indexes) {
        /** How many parameters the statement has: the greatest {@code $n}. */
        int count() {
            return indexes.stream().mapToInt(Integer::intValue).max().orElse(0);
        }
    }

    static Placeholders placeholders(String sql) {
        List<Integer> indexes = new ArrayList<>();
        String jdbcSql = replace(sql, (index, position) -> {
            indexes.add(index);
            return "?";
        });
        return new Placeholders(jdbcSql, indexes);
    }

    /** What replaces {@code $index}, which starts at the 1-based {@code position} of the statement. */
    private interface Replacement {
        String of(int index, int position);
    }

    private static String replace(String sql, Replacement replacement) {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = closing(sql, i, c);
                out.append(sql, i, end);
                i = end;
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                end = end < 0 ? sql.length() : end;
                out.append(sql, i, end);
                i = end;
            } else if (c == '$' && i + 1 < sql.length() && Character.isDigit(sql.charAt(i + 1))) {
                int end = i + 1;
                while (end < sql.length() && Character.isDigit(sql.charAt(end))) {
                    end++;
                }
                out.append(replacement.of(Integer.parseInt(sql.substring(i + 1, end)), i + 1));
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static int closing(String sql, int start, char quote) {
        int j = start + 1;
        while (j < sql.length()) {
            if (sql.charAt(j) == quote) {
                if (j + 1 < sql.length() && sql.charAt(j + 1) == quote) {
                    j += 2;
                    continue;
                }
                return j + 1;
            }
            j++;
        }
        return sql.length();
    }
}
