package io.kafkamv.compiler.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

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
        if (item instanceof SqlIdentifier identifier) {
            return identifier.isStar() ? "?column?" : identifier.names.get(identifier.names.size() - 1);
        }
        if (item instanceof SqlCall call) {
            if (call.getKind() == SqlKind.AS) {
                return ((SqlIdentifier) call.operand(1)).getSimple();
            }
            if (call.getKind() == SqlKind.CAST) {
                return name(call.operand(0));
            }
            if (call.getOperator() instanceof SqlFunction function && call instanceof SqlBasicCall) {
                return function.getName().toLowerCase(Locale.ROOT);
            }
        }
        return "?column?";
    }
}
