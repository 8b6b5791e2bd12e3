package io.kafkamv.compiler.plan;

import java.util.List;
import java.util.function.UnaryOperator;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;

/**
 * Puts each row into time windows by one of its timestamp columns, adding {@code window_start} and
 * {@code window_end}: {@code TUMBLE} gives each row one window, {@code HOP} every window of
 * {@code size} that starts at a multiple of {@code slide} and holds the row's time. Windows start
 * at {@code offset} plus multiples of the slide (the size for TUMBLE) since the epoch. A row without a
 * time is in no window. Results follow changes like any other step: there are no watermarks, and a
 * late row updates its window.
 *
 * @param timeColumn the input column holding each row's time
 */
public record WindowStep(String id, String input, WindowKind kind, int timeColumn, long sizeMillis,
                         long slideMillis, long offsetMillis, RowSchema schema, List<Column> key)
    implements PlanStep {

    public enum WindowKind { TUMBLE, HOP }

    public WindowStep {
        if (sizeMillis <= 0 || slideMillis <= 0) {
            throw new IllegalArgumentException("A window's size and slide must be positive");
        }
    }

    /** The key of a hopping window's rows: the row's key in its input and the window's start. */
    public static List<Column> hopKey() {
        return List.of(new Column("_input_key", SqlType.BYTEA, false),
            new Column("_window_start", SqlType.TIMESTAMP, false));
    }

    /** The start of the latest window that holds {@code time}. */
    public long latestStart(long time) {
        return time - Math.floorMod(time - offsetMillis, slideMillis);
    }

    @Override
    public List<String> inputs() {
        return List.of(input);
    }

    @Override
    public PlanStep withColumnNames(List<String> names) {
        return new WindowStep(id, input, kind, timeColumn, sizeMillis, slideMillis, offsetMillis,
            schema.withColumnNames(names), key);
    }

    @Override
    public PlanStep renamed(UnaryOperator<String> ids) {
        return new WindowStep(ids.apply(id), ids.apply(input), kind, timeColumn, sizeMillis, slideMillis, offsetMillis, schema,
            key);
    }

    @Override
    public <R> R accept(PlanStepVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
