package io.kafkamv.compiler.error;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParserPos;

/** Calcite's validation errors in PostgreSQL's words, with their place in the statement. */
public final class CalciteErrors {

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
