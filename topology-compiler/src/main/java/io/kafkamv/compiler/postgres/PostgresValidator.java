package io.kafkamv.compiler.postgres;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.CalciteException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;

import static org.apache.calcite.util.Static.RESOURCE;

/**
 * Calcite's validator, naming a call no function matches as PostgreSQL does: {@code div(integer, integer)}, by the
 * argument types' PostgreSQL names. Calcite named their families ({@code div(<NUMERIC>, <NUMERIC>)}), which does not
 * tell an integer from a numeric, and for a function with one overload said only how many arguments it takes.
 * Its functions come first from {@link NumericMath}: mathematical functions of numerics are numerics, as in
 * PostgreSQL. Views and queries both validate with it.
 */
public final class PostgresValidator extends CalciteSqlValidator {

    public PostgresValidator(SqlOperatorTable operators, CalciteCatalogReader catalogReader,
        JavaTypeFactory typeFactory, Config config) {
        super(SqlOperatorTables.chain(NumericMath.OPERATORS, operators), catalogReader, typeFactory, config);
    }

    @Override
    public CalciteException handleUnresolvedFunction(SqlCall call, SqlOperator unresolvedFunction,
        List<RelDataType> argTypes, List<String> argNames) {
        // A string literal's type is PostgreSQL's unknown until a function's parameter gives it one.
        String arguments = IntStream.range(0, argTypes.size())
            .mapToObj(i -> i < call.operandCount() && call.operand(i) instanceof SqlCharStringLiteral ? "unknown"
                : TypeNames.name(argTypes.get(i)))
            .collect(Collectors.joining(", "));
        throw newValidationError(call, RESOURCE.validatorUnknownFunction(
            unresolvedFunction.getName().toLowerCase(Locale.ROOT) + "(" + arguments + ")"));
    }
}
