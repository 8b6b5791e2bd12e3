package io.kafkamv.compiler.postgres;

import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;

/**
 * The operator of a static Java method that Calcite's generated code calls, for the rewrites of this package: each
 * builds its call with an explicit type ({@code RexBuilder.makeCall(type, operator, operands)}), so the operator's
 * own return type only says "the first operand's" for what does not.
 */
final class JavaFunctions {

    private JavaFunctions() {
    }

    static SqlUserDefinedFunction operator(String sqlName, Class<?> holder, String method) {
        return new SqlUserDefinedFunction(new SqlIdentifier(sqlName, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
            ReturnTypes.ARG0, null, null, ScalarFunctionImpl.create(holder, method));
    }
}
