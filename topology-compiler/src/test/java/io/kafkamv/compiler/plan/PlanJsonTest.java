package io.kafkamv.compiler.plan;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class PlanJsonTest {

    @Test
    void aPlanOfANewerVersionIsSaidToBeNewerEvenWithFieldsThisVersionDoesNotKnow() {
        ObjectNode tree = (ObjectNode) PlanJson.toTree(PhysicalPlan.of("v", "kmv-view-v", "v",
            List.of(new TableScanStep("s0", "t", "t", RowSchema.of(Column.of("id", SqlType.INTEGER)), List.of(), true))));
        tree.put("version", PhysicalPlan.CURRENT_VERSION + 1).put("somethingNew", true);

        assertThatThrownBy(() -> PlanJson.fromTree(tree)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("Plan version " + (PhysicalPlan.CURRENT_VERSION + 1) + " is newer than this kafka-mv understands");
    }
}
