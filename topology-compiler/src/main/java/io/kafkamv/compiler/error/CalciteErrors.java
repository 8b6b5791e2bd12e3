package io.kafkamv.compiler.error;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParserPos;

/** Calcite's validation errors in PostgreSQL's words, with their place in the statement. */
public final class CalciteErrors {

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
            return new CompileException(CompileException.Category.TYPE,
                "function " + message.substring("No match found for function signature ".length()) + " does not exist",
                position, "no function matches the given name and argument types");
        }
        return new CompileException(CompileException.Category.TYPE, message, position, null);
    }

    private static String between(String text, String start, String end) {
        int from = text.indexOf(start) + start.length();
        int to = text.indexOf(end, from);
        return to < 0 ? text.substring(from) : text.substring(from, to);
    }
}
