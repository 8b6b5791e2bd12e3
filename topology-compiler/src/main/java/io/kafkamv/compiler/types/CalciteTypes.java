package io.kafkamv.compiler.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.NumericTypmod;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/** Our column types and Calcite's, both ways. */
public final class CalciteTypes {

    private CalciteTypes() {
    }

    public static RelDataType rowType(RowSchema schema, RelDataTypeFactory factory) {
        RelDataTypeFactory.Builder builder = factory.builder();
        for (Column column : schema.columns()) {
            builder.add(column.name(), factory.createTypeWithNullability(type(column, factory), column.nullable()));
        }
        return builder.build();
    }

    /**
     * Makes PostgreSQL's type names that are not SQL's ({@code text}, {@code int4}, {@code float8},
     * {@code jsonb}, ...) known to Calcite, so that {@code CAST(x AS text)} and {@code x::int8} work as
     * they do in a column definition.
     */
    public static void addPostgresNames(SchemaPlus schema) {
        SqlType.names().forEach((name, type) -> {
            if (!name.contains(" ")) {
                // Upper case: the parser reads an unquoted type name as an identifier, in upper case.
                schema.add(name.toUpperCase(java.util.Locale.ROOT), factory -> type(type, factory));
            }
        });
    }

    /** A column's type; a numeric declared with a precision has it, a plain numeric is unconstrained. */
    public static RelDataType type(Column column, RelDataTypeFactory factory) {
        NumericTypmod numeric = column.numeric();
        return numeric == null ? type(column.type(), factory)
            : factory.createSqlType(SqlTypeName.DECIMAL, numeric.precision(), numeric.scale());
    }

    public static RelDataType type(SqlType type, RelDataTypeFactory factory) {
        return switch (type) {
            case BOOLEAN -> factory.createSqlType(SqlTypeName.BOOLEAN);
            case SMALLINT -> factory.createSqlType(SqlTypeName.SMALLINT);
            case INTEGER -> factory.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
            case REAL -> factory.createSqlType(SqlTypeName.REAL);
            case DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL);
            case VARCHAR, JSONB -> factory.createSqlType(SqlTypeName.VARCHAR);
            case DATE -> factory.createSqlType(SqlTypeName.DATE);
            case TIME -> factory.createSqlType(SqlTypeName.TIME);
            case TIMESTAMP -> factory.createSqlType(SqlTypeName.TIMESTAMP, 3);
            case TIMESTAMPTZ -> factory.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3);
            // The precisions of PostgreSQL's interval literals and timestamp differences, so that comparing them
            // with a column needs no cast between interval types (which Calcite's executor cannot make).
            case INTERVAL -> factory.createSqlIntervalType(
                new SqlIntervalQualifier(TimeUnit.DAY, 9, TimeUnit.SECOND, 3, SqlParserPos.ZERO));
            case BYTEA -> factory.createSqlType(SqlTypeName.VARBINARY);
        };
    }

    /** The column type for a Calcite type, or null when we cannot store it. */
    public static SqlType sqlType(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> SqlType.BOOLEAN;
            case TINYINT, SMALLINT -> SqlType.SMALLINT;
            case INTEGER -> SqlType.INTEGER;
            case BIGINT -> SqlType.BIGINT;
            case REAL, FLOAT -> SqlType.REAL;
            case DOUBLE -> SqlType.DOUBLE;
            case DECIMAL -> SqlType.DECIMAL;
            case CHAR, VARCHAR -> SqlType.VARCHAR;
            case DATE -> SqlType.DATE;
            case TIME -> SqlType.TIME;
            case TIMESTAMP -> SqlType.TIMESTAMP;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> SqlType.TIMESTAMPTZ;
            case INTERVAL_DAY, INTERVAL_DAY_HOUR, INTERVAL_DAY_MINUTE, INTERVAL_DAY_SECOND, INTERVAL_HOUR,
                INTERVAL_HOUR_MINUTE, INTERVAL_HOUR_SECOND, INTERVAL_MINUTE, INTERVAL_MINUTE_SECOND,
                INTERVAL_SECOND -> SqlType.INTERVAL;
            case BINARY, VARBINARY -> SqlType.BYTEA;
            default -> null;
        };
    }

    private static String postgresName(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.ARRAY
            ? (type.getComponentType() == null ? "array" : postgresName(type.getComponentType()) + "[]")
            : Optional.ofNullable(sqlType(type)).map(SqlType::postgresName)
                .orElse(type.getSqlTypeName().getName().toLowerCase(java.util.Locale.ROOT));
    }

    /** The schema of a Calcite row type; names are made unique, Calcite's {@code EXPR$n} names kept. */
    public static RowSchema schema(RelDataType rowType, List<String> keyColumns) {
        List<Column> columns = new ArrayList<>();
        for (RelDataTypeField field : rowType.getFieldList()) {
            SqlType type = sqlType(field.getType());
            if (type == null) {
                boolean array = field.getType().getSqlTypeName() == SqlTypeName.ARRAY;
                throw new CompileException(CompileException.Category.UNSUPPORTED, "column \"" + field.getName()
                    + "\" of type " + postgresName(field.getType()) + " cannot be stored in a view yet", 0,
                    array ? "Store its elements (x[1]) or its text (array_to_string(x, ',')) instead." : null);
            }
            columns.add(new Column(field.getName(), type, field.getType().isNullable()));
        }
        return new RowSchema(columns, keyColumns);
    }
}
