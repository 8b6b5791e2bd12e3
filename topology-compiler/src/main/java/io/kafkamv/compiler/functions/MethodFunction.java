package io.kafkamv.compiler.functions;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.util.List;
import java.util.stream.IntStream;

import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A function kafka-mv implements with a public static method, its parameters and result declared as SQL types and
 * passed in Calcite's own representation of them: a date as days since 1970, a timestamp or timestamptz as
 * milliseconds, a day-time interval as milliseconds. Calcite's {@code ScalarFunctionImpl} types a parameter by its
 * Java class, which cannot say "date" without {@code java.sql.Date} and the JVM's time zone. Strict: a null argument
 * gives null without calling the method.
 */
final class MethodFunction implements ScalarFunction, ImplementableFunction {

    /** A parameter's name and SQL type. */
    record Parameter(String name, SqlTypeName type) {
    }

    private final Method method;
    private final List<Parameter> parameters;
    private final SqlTypeName result;

    private MethodFunction(Method method, List<Parameter> parameters, SqlTypeName result) {
        this.method = method;
        this.parameters = parameters;
        this.result = result;
    }

    /** The method {@code name} of {@code owner} whose Java parameters hold the SQL types given, in order. */
    static MethodFunction of(Class<?> owner, String name, SqlTypeName result, Parameter... parameters) {
        Class<?>[] javaTypes = new Class<?>[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            javaTypes[i] = javaType(parameters[i].type());
        }
        try {
            return new MethodFunction(owner.getMethod(name, javaTypes), List.of(parameters), result);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(owner.getSimpleName() + " has no method " + name + " for its SQL parameters", e);
        }
    }

    static Parameter parameter(String name, SqlTypeName type) {
        return new Parameter(name, type);
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return IntStream.range(0, parameters.size())
            .mapToObj(i -> FunctionParameters.of(i, parameters.get(i).name(), types -> sqlType(types, parameters.get(i).type())))
            .toList();
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        return types.createTypeWithNullability(sqlType(types, result), true);
    }

    /** Calls the method with each argument converted to its Java parameter's class (a numeric to a double, say). */
    @Override
    public CallImplementor getImplementor() {
        Class<?>[] javaTypes = method.getParameterTypes();
        return RexImpTable.createImplementor((translator, call, operands) -> Expressions.call(method,
            IntStream.range(0, operands.size()).mapToObj(i -> EnumUtils.convert(operands.get(i), javaTypes[i])).toList()),
            NullPolicy.STRICT, false);
    }

    private static RelDataType sqlType(RelDataTypeFactory types, SqlTypeName type) {
        return switch (type) {
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> types.createSqlType(type, 3);
            case INTERVAL_DAY_SECOND -> types.createSqlIntervalType(
                new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND, SqlParserPos.ZERO));
            default -> types.createSqlType(type);
        };
    }

    /** The Java class Calcite's generated code holds a value of the SQL type in. */
    private static Class<?> javaType(SqlTypeName type) {
        return switch (type) {
            case DATE, TIME, INTEGER -> int.class;
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, BIGINT, INTERVAL_DAY_SECOND -> long.class;
            case DOUBLE -> double.class;
            case BOOLEAN -> boolean.class;
            case DECIMAL -> BigDecimal.class;
            case CHAR, VARCHAR -> String.class;
            case BINARY, VARBINARY -> ByteString.class;
            default -> throw new IllegalArgumentException("no Java class for SQL type " + type);
        };
    }
}
