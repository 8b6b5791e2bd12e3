package io.kafkamv.compiler.topology.internal;

import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;

/** A topic read once, as a table or as a stream, whichever is asked for first; the other is made from it. */
public final class TopicRows {
    private final Supplier<KTable<Object[], Object[]>> readTable;
    private final Function<KTable<Object[], Object[]>, KStream<Object[], Object[]>> tableToStream;
    private final Supplier<KStream<Object[], Object[]>> readStream;
    private final Function<KStream<Object[], Object[]>, KTable<Object[], Object[]>> streamToTable;
    private KTable<Object[], Object[]> table;
    private KStream<Object[], Object[]> stream;

    public TopicRows(Supplier<KTable<Object[], Object[]>> readTable,
              Function<KTable<Object[], Object[]>, KStream<Object[], Object[]>> tableToStream,
              Supplier<KStream<Object[], Object[]>> readStream,
              Function<KStream<Object[], Object[]>, KTable<Object[], Object[]>> streamToTable) {
        this.readTable = readTable;
        this.tableToStream = tableToStream;
        this.readStream = readStream;
        this.streamToTable = streamToTable;
    }

    public KTable<Object[], Object[]> table() {
        if (table == null) {
            table = stream != null ? streamToTable.apply(stream) : readTable.get();
        }
        return table;
    }

    public KStream<Object[], Object[]> stream() {
        if (stream == null) {
            stream = table != null ? tableToStream.apply(table) : readStream.get();
        }
        return stream;
    }
}
