package io.kafkamv.compiler.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.kafkamv.compiler.functions.KafkaMvFunctions;
import io.kafkamv.compiler.functions.PostgresLibraryFunctions;
import io.kafkamv.compiler.functions.SystemFunctions;
import io.kafkamv.compiler.postgres.UnconstrainedNumerics;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlTrimFunction;

/**
 * The names PostgreSQL gives unnamed result columns: a function call is named after the function
 * ({@code count}), a cast after what it casts, anything else {@code ?column?}. Calcite says
 * {@code EXPR$0}; clients and users expect PostgreSQL's names.
 */
public final class ResultNames {

    private ResultNames() {
    }

    /** One name per select item of a query, or an empty list when the query is not a plain SELECT. */
    public static List<String> of(SqlNode query) {
        SqlNode node = query instanceof SqlOrderBy orderBy ? orderBy.query : query;
        if (node instanceof SqlWith with) {
            return of(with.body);
        }
        if (!(node instanceof SqlSelect select)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            names.add(name(item));
        }
        return names;
    }

    private static String name(SqlNode item) {
        return figure(item).name();
    }

    /**
     * PostgreSQL's {@code FigureColname}: a name from a column, alias or function is strong; one a cast or CASE
     * makes up (the type's name, "case") is weak and gives way to an outer cast's.
     */
    private static Figured figure(SqlNode item) {
        if (item instanceof SqlIdentifier identifier) {
            return identifier.isStar() ? Figured.NONE : new Figured(identifier.names.get(identifier.names.size() - 1), true);
        }
        if (item instanceof SqlIntervalLiteral) {
            return new Figured("interval", false);
        }
        if (item instanceof SqlUnknownLiteral typed) {
            // DATE '2026-01-01': PostgreSQL reads a typed literal as a cast and names it after the type.
            return new Figured(typed.tag.equals("TIMESTAMP WITH LOCAL TIME ZONE") ? "timestamptz"
                : typed.tag.toLowerCase(Locale.ROOT), false);
        }
        if (item instanceof SqlSelect || item instanceof SqlOrderBy) {
            // A scalar subquery is named by its one column, as PostgreSQL names it.
            List<String> inner = of(item);
            return inner.isEmpty() ? Figured.NONE : new Figured(inner.get(0), true);
        }
        if (!(item instanceof SqlCall call)) {
            return Figured.NONE;
        }
        if (call.getKind() == SqlKind.AS) {
            return new Figured(((SqlIdentifier) call.operand(1)).getSimple(), true);
        }
        if (call.getKind() == SqlKind.CAST) {
            return orWeak(figure(call.operand(0)),
                call.operand(1) instanceof SqlDataTypeSpec spec ? typeName(spec) : "interval");
        }
        if (call.getOperator().getName().equals(UnconstrainedNumerics.FUNCTION_NAME)) {
            return orWeak(figure(call.operand(0)), "numeric");
        }
        if (call instanceof SqlCase caseCall) {
            return orWeak(caseCall.getElseOperand() == null ? Figured.NONE : figure(caseCall.getElseOperand()), "case");
        }
        if (call.getKind() == SqlKind.OVER || call.getKind() == SqlKind.FILTER || call.getKind() == SqlKind.WITHIN_GROUP) {
            return figure(call.operand(0));
        }
        if (call.getKind() == SqlKind.TRIM && call.operand(0) instanceof SqlLiteral flag) {
            // PostgreSQL reads trim(...) as btrim, ltrim or rtrim, and names the column so.
            return new Figured(switch (flag.getValueAs(SqlTrimFunction.Flag.class)) {
                case LEADING -> "ltrim";
                case TRAILING -> "rtrim";
                default -> "btrim";
            }, true);
        }
        if (call.getKind() == SqlKind.EXISTS) {
            return new Figured("exists", true);
        }
        if (KafkaMvFunctions.isOperator(call)) {
            return Figured.NONE;
        }
        if (call.getOperator() instanceof SqlFunction function && call instanceof SqlBasicCall) {
            String name = function.getName().toLowerCase(Locale.ROOT);
            return new Figured(PostgresLibraryFunctions.postgresName(SystemFunctions.resultName(name)), true);
        }
        return Figured.NONE;
    }

    private static Figured orWeak(Figured inner, String weakName) {
        return inner.strong() ? inner : new Figured(weakName, false);
    }

    private record Figured(String name, boolean strong) {
        static final Figured NONE = new Figured("?column?", false);
    }

    /** PostgreSQL's internal name of a type as written: {@code integer} is int4, {@code double precision} float8. */
    private static String typeName(SqlDataTypeSpec spec) {
        String written = spec.getTypeNameSpec().getTypeName().getSimple().toLowerCase(Locale.ROOT);
        return switch (written) {
            case "int", "integer" -> "int4";
            case "bigint" -> "int8";
            case "smallint" -> "int2";
            case "boolean" -> "bool";
            case "real" -> "float4";
            case "double", "float" -> "float8";
            case "decimal" -> "numeric";
            case "timestamp_with_local_time_zone" -> "timestamptz";
            default -> written;
        };
    }
}
