package io.kafkamv.compiler.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What a step's rows are to the steps that read them, as the plan records it. */
public enum StepOutput {

    /** Rows only ever inserted, offered as a stream of them: a step reading it may keep no table of its input. */
    INSERTS,
    /** A table whose rows are inserted, updated and deleted: steps reading it get its changes, with retractions. */
    CHANGES;

    @JsonValue
    String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    static StepOutput fromJson(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }

    /**
     * What each step of a plan of this version produces: the planner records it in new plans, and plans
     * stored before plans recorded it are read with it. From version 2, an append-only table or source
     * produces inserts, and so do a calculation, a tumbling window and a lookup join over inserts; every
     * other step produces changes (an aggregate updates its groups, a join and a top-N retract rows, a
     * hopping window and a union are kept as tables). In version 1, every step produced changes.
     */
    public static Map<String, StepOutput> of(int version, List<PlanStep> steps) {
        Map<String, StepOutput> outputs = new LinkedHashMap<>();
        for (PlanStep step : steps) {
            outputs.put(step.id(), version < PhysicalPlan.INSERT_STREAMS_VERSION ? CHANGES : producedBy(step, outputs));
        }
        return outputs;
    }

    private static StepOutput producedBy(PlanStep step, Map<String, StepOutput> before) {
        boolean inserts;
        if (step instanceof TableScanStep scan) {
            inserts = scan.appendOnly();
        } else if (step instanceof SourceScanStep scan) {
            inserts = scan.schema().appendOnly();
        } else if (step instanceof CalcStep calc) {
            inserts = before.get(calc.input()) == INSERTS;
        } else if (step instanceof LookupJoinStep lookup) {
            // The table's later changes never reach joined rows: inserts looked up stay inserts.
            inserts = before.get(lookup.input()) == INSERTS;
        } else if (step instanceof WindowStep window) {
            inserts = window.kind() == WindowStep.WindowKind.TUMBLE && before.get(window.input()) == INSERTS;
        } else {
            inserts = false;
        }
        return inserts ? INSERTS : CHANGES;
    }
}
