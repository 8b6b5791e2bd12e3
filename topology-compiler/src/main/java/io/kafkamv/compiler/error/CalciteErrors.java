package io.kafkamv.compiler.error;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParserPos;

/** Calcite's validation errors in PostgreSQL's words, with their place in the statement. */
public final class CalciteErrors {

    /** PostgreSQL's hint for a call no function or operator matches. */
    private static final String NO_MATCH_HINT =
        "No %s matches the given name and argument types. You might need to add explicit type casts.";

    /** Calcite's error for a call of a function or operator of its own whose arguments' types it takes in no form. */
    private static final Pattern CANNOT_APPLY =
        Pattern.compile("Cannot apply '(.+?)' to arguments of type '(.+?)'\\. Supported form\\(s\\).*", Pattern.DOTALL);

    private static final Pattern BOOLEAN_OPERATORS = Pattern.compile("AND|OR|NOT|IS (NOT )?(TRUE|FALSE|UNKNOWN)");

    /** A type in one of Calcite's signatures: {@code <DECIMAL(5, 1)>}, {@code <INTEGER ARRAY>}. */
    private static final Pattern SIGNATURE_TYPE = Pattern.compile("<([^<>]+)>");

    private static final Pattern CANNOT_CAST =
        Pattern.compile("Cast function cannot convert value of type (.+?)(?: NOT NULL)? to type (.+?)(?: NOT NULL)?");

    private CalciteErrors() {
    }

    /** Calcite's validation error as a CompileException placed in {@code statementText}. */
    public static CompileException translate(CalciteContextException e, String statementText) {
        int position = CompileException.positionOf(statementText,
            new SqlParserPos(e.getPosLine(), e.getPosColumn()));
        String message = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
        if (message.startsWith("Object '") && message.contains("not found")) {
            String name = between(message, "Object '", "'");
            return new CompileException(CompileException.Category.UNKNOWN_OBJECT,
                "relation \"" + name + "\" does not exist", position, null);
        }
        if (message.startsWith("Column '") && message.contains("not found")) {
            String name = between(message, "Column '", "'");
            return new CompileException(CompileException.Category.UNKNOWN_COLUMN,
                "column \"" + name + "\" does not exist", position, null);
        }
        if (message.startsWith("Unknown identifier '")) {
            // Calcite's word for a type name (CAST(x AS foo), x::foo, foo 'text') that no type has.
            String name = between(message, "Unknown identifier '", "'").toLowerCase(Locale.ROOT);
            return new CompileException(CompileException.Category.UNKNOWN_TYPE,
                "type \"" + name + "\" does not exist", position, null);
        }
        Matcher cast = CANNOT_CAST.matcher(message);
        if (cast.matches()) {
            return new CompileException(CompileException.Category.CANNOT_CAST, "cannot cast type "
                + cast.group(1).toLowerCase(Locale.ROOT) + " to " + cast.group(2).toLowerCase(Locale.ROOT), position, null);
        }
        if (message.startsWith("No match found for function signature")) {
            return new CompileException(CompileException.Category.UNKNOWN_FUNCTION,
                "function " + message.substring("No match found for function signature ".length()) + " does not exist",
                position, NO_MATCH_HINT.formatted("function"));
        }
        Matcher apply = CANNOT_APPLY.matcher(message);
        if (apply.matches() && BOOLEAN_OPERATORS.matcher(apply.group(1)).matches()) {
            Matcher types = SIGNATURE_TYPE.matcher(apply.group(2));
            while (types.find()) {
                String type = postgresTypeName(types.group(1));
                if (!type.equals("boolean")) {
                    return new CompileException(CompileException.Category.TYPE, "argument of " + apply.group(1)
                        + " must be type boolean, not type " + type, position, null);
                }
            }
        }
        if (apply.matches()) {
            String name = apply.group(1);
            String signature = SIGNATURE_TYPE.matcher(apply.group(2))
                .replaceAll(type -> Matcher.quoteReplacement(postgresTypeName(type.group(1))));
            if (signature.startsWith(name + "(")) {
                return new CompileException(CompileException.Category.UNKNOWN_FUNCTION, "function "
                    + name.toLowerCase(Locale.ROOT) + signature.substring(name.length()) + " does not exist",
                    position, NO_MATCH_HINT.formatted("function"));
            }
            if (signature.startsWith(name)) {
                return new CompileException(CompileException.Category.UNKNOWN_FUNCTION, "operator does not exist: "
                    + name + " " + signature.substring(name.length()), position,
                    "No operator matches the given name and argument type. You might need to add an explicit type cast.");
            }
            return new CompileException(CompileException.Category.UNKNOWN_FUNCTION, "operator does not exist: "
                + signature, position, NO_MATCH_HINT.formatted("operator"));
        }
        return new CompileException(CompileException.Category.TYPE, message, position, null);
    }

    /** A type as Calcite writes it in a signature ({@code DECIMAL(5, 1)}), by PostgreSQL's name ({@code numeric}). */
    static String postgresTypeName(String calcite) {
        String type = calcite.replace(" NOT NULL", "");
        if (type.endsWith(" ARRAY")) {
            return postgresTypeName(type.substring(0, type.length() - " ARRAY".length())) + "[]";
        }
        int parenthesis = type.indexOf('(');
        String base = parenthesis < 0 ? type : type.substring(0, parenthesis);
        if (base.startsWith("INTERVAL")) {
            return "interval";
        }
        return switch (base) {
            case "TINYINT", "SMALLINT" -> "smallint";
            case "INTEGER" -> "integer";
            case "BIGINT" -> "bigint";
            case "DECIMAL" -> "numeric";
            case "REAL", "FLOAT" -> "real";
            case "DOUBLE" -> "double precision";
            case "CHAR", "VARCHAR" -> "text";
            case "BINARY", "VARBINARY" -> "bytea";
            case "BOOLEAN" -> "boolean";
            case "TIMESTAMP" -> "timestamp without time zone";
            case "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "TIMESTAMP_TZ" -> "timestamp with time zone";
            case "TIME" -> "time without time zone";
            case "NULL" -> "unknown";
            default -> base.toLowerCase(Locale.ROOT);
        };
    }

    private static String between(String text, String start, String end) {
        int from = text.indexOf(start) + start.length();
        int to = text.indexOf(end, from);
        return to < 0 ? text.substring(from) : text.substring(from, to);
    }
}
