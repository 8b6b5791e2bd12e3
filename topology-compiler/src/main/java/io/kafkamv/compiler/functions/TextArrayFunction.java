package io.kafkamv.compiler.functions;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.ReflectiveCallNotNullImplementor;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A function of text arguments that returns {@code text[]}, implemented by a static method of {@link TextFunctions}
 * that returns a list. Calcite cannot tell a SQL array from a Java list's type by itself, so this says it. Null if
 * any argument is null, as PostgreSQL's strict functions are.
 */
final class TextArrayFunction implements ScalarFunction, ImplementableFunction {

    private final Method method;

    private TextArrayFunction(Method method) {
        this.method = method;
    }

    /** The method of {@link TextFunctions} of that name taking {@code arguments} strings. */
    static TextArrayFunction of(String name, int arguments) {
        Class<?>[] parameters = new Class<?>[arguments];
        Arrays.fill(parameters, String.class);
        try {
            return new TextArrayFunction(TextFunctions.class.getMethod(name, parameters));
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("TextFunctions has no " + name + " of " + arguments + " strings", e);
        }
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return IntStream.range(0, method.getParameterCount())
            .mapToObj(i -> FunctionParameters.of(i, "text" + i, SqlTypeName.VARCHAR))
            .toList();
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory types) {
        RelDataType element = types.createTypeWithNullability(types.createSqlType(SqlTypeName.VARCHAR), true);
        return types.createTypeWithNullability(types.createArrayType(element, -1), true);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(new ReflectiveCallNotNullImplementor(method), NullPolicy.STRICT, false);
    }
}
