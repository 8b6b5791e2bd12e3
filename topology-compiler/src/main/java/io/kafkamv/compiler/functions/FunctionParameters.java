package io.kafkamv.compiler.functions;

import java.util.function.Function;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.sql.type.SqlTypeName;

/** The parameters of the functions kafka-mv implements itself, with their SQL types: none is optional. */
final class FunctionParameters {

    private FunctionParameters() {
    }

    static FunctionParameter of(int ordinal, String name, SqlTypeName type) {
        return of(ordinal, name, types -> types.createSqlType(type));
    }

    static FunctionParameter of(int ordinal, String name, Function<RelDataTypeFactory, RelDataType> type) {
        return new FunctionParameter() {
            @Override
            public int getOrdinal() {
                return ordinal;
            }

            @Override
            public String getName() {
                return name;
            }

            @Override
            public RelDataType getType(RelDataTypeFactory types) {
                return type.apply(types);
            }

            @Override
            public boolean isOptional() {
                return false;
            }
        };
    }
}
