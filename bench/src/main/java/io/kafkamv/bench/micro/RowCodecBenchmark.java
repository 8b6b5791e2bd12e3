package io.kafkamv.bench.micro;

import io.kafkamv.connectors.row.RowCodec;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** Rows per second through the binary row format that every store, changelog and exchange uses. */
@State(Scope.Thread)
public class RowCodecBenchmark {

    private final RowCodec codec = new RowCodec(List.of(
        Column.of("id", SqlType.BIGINT), Column.of("g", SqlType.INTEGER), Column.of("v", SqlType.INTEGER),
        Column.of("name", SqlType.VARCHAR)));
    private final Object[] row = {42L, 7, 99, "event-42"};
    private final byte[] encoded = codec.encode(row);

    @Benchmark
    public byte[] encode() {
        return codec.encode(row);
    }

    @Benchmark
    public Object[] decode() {
        return codec.decode(encoded);
    }
}
