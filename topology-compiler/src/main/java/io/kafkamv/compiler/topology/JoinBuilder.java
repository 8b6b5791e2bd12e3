package io.kafkamv.compiler.topology;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import io.kafkamv.compiler.plan.JoinStep;
import io.kafkamv.compiler.topology.internal.JoinKeys;
import io.kafkamv.compiler.topology.internal.JoinProcessor;
import io.kafkamv.compiler.topology.internal.JoinSide;
import io.kafkamv.connectors.row.RowCodec;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Named;

/** Builds a {@link JoinStep}: both sides sent over an exchange to the partition of their join key. */
final class JoinBuilder {

    private final BuildContext context;
    private final Exchanges exchanges;

    JoinBuilder(BuildContext context) {
        this.context = context;
        this.exchanges = new Exchanges(context);
    }

    Supplier<KTable<Object[], Object[]>> build(JoinStep step) {
        return () -> join(step);
    }

    private KTable<Object[], Object[]> join(JoinStep step) {
        KStream<byte[], byte[]> left = joinSide(step, JoinSide.LEFT, step.left(), step.leftKeys());
        KStream<byte[], byte[]> right = joinSide(step, JoinSide.RIGHT, step.right(), step.rightKeys());
        String leftRows = JoinProcessor.storeName(step, JoinSide.LEFT);
        String rightRows = JoinProcessor.storeName(step, JoinSide.RIGHT);
        context.addBytesStore(leftRows);
        context.addBytesStore(rightRows);
        RowCodec leftCodec = new RowCodec(context.step(step.left()).schema().columns());
        RowCodec rightCodec = new RowCodec(context.step(step.right()).schema().columns());
        KStream<Object[], Object[]> joined = left.merge(right, Named.as(step.id() + "-merge"))
            .process(() -> new JoinProcessor(step, leftCodec, rightCodec), Named.as(step.id() + "-join"),
                leftRows, rightRows);
        return Exchanges.rekeyedTable(joined, step);
    }

    /** One side of a join, keyed by join key and sent to the partition where its matches are. */
    private KStream<byte[], byte[]> joinSide(JoinStep step, JoinSide side, String inputId, List<Integer> keys) {
        String name = step.id() + "-" + side.name().toLowerCase(Locale.ROOT);
        JoinKeys joinKeys = new JoinKeys(keys, step.joinKey(), step.nullSafe());
        return exchanges.of(inputId, name, name + "-join-keys", name + "-by-join-key", step.partitions(),
            joinKeys::prefix, side::change);
    }
}
