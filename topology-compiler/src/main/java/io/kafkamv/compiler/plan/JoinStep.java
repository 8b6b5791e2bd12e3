package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;

/**
 * An equi-join of two inputs, kept up to date in both directions: a change on either side retracts
 * the joined rows it made and emits the new ones, and outer joins pad and un-pad rows as their
 * matches come and go. Rows are the left input's columns followed by the right's.
 *
 * <p>Both inputs are re-keyed by the join key and exchanged over {@code partitions} partitions, so
 * that rows that may match meet in the same task; the count is fixed in the plan because the two
 * exchanges must agree and the inputs' own partition counts may differ.
 *
 * @param leftKeys  the join key's columns in the left input, in order
 * @param rightKeys the matching columns in the right input
 * @param joinKey   the type every key value is converted to before comparing, so INT 1 meets BIGINT 1
 * @param nullSafe  positions of key columns compared with IS NOT DISTINCT FROM, where NULL meets NULL
 */
public record JoinStep(String id, String left, String right, JoinKind kind, List<Integer> leftKeys,
                       List<Integer> rightKeys, List<Column> joinKey,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> nullSafe, int partitions,
                       RowSchema schema, List<Column> key) implements PlanStep {

    /** Which unmatched rows an outer join keeps, padded with nulls. */
    public enum JoinKind {
        INNER, LEFT, RIGHT, FULL;

        public boolean keepsLeft() {
            return this == LEFT || this == FULL;
        }

        public boolean keepsRight() {
            return this == RIGHT || this == FULL;
        }
    }

    public JoinStep {
        leftKeys = List.copyOf(leftKeys);
        rightKeys = List.copyOf(rightKeys);
        joinKey = List.copyOf(joinKey);
        nullSafe = nullSafe == null ? List.of() : List.copyOf(nullSafe);
        if (leftKeys.size() != rightKeys.size() || leftKeys.size() != joinKey.size()) {
            throw new IllegalArgumentException("A join needs as many left as right key columns");
        }
    }

    /**
     * The key of a join's rows: the encoded join key, and each side's key in its input (null for
     * the missing side of a padded row). The join key is part of it so that a row that moves to
     * another join key becomes another row, whose changes come from one task only.
     */
    public static List<Column> joinOutputKey() {
        return List.of(new Column("_join_key", SqlType.BYTEA, false),
            new Column("_left_key", SqlType.BYTEA, true),
            new Column("_right_key", SqlType.BYTEA, true));
    }

    @Override
    public List<String> inputs() {
        return left.equals(right) ? List.of(left) : List.of(left, right);
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new JoinStep(id, left, right, kind, leftKeys, rightKeys, joinKey, nullSafe, partitions,
            schema.withColumnNames(names), key);
    }

    @Override
    public PlanStep renamed(UnaryOperator<String> ids) {
        return new JoinStep(ids.apply(id), ids.apply(left), ids.apply(right), kind, leftKeys, rightKeys, joinKey, nullSafe,
            partitions, schema, key);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
