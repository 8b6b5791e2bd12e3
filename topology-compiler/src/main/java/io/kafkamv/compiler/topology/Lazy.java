package io.kafkamv.compiler.topology;

import java.util.function.Supplier;

/** A part of the topology built the first time it is asked for, and only then. */
final class Lazy<T> implements Supplier<T> {
    private Supplier<T> build;
    private T built;

    Lazy(Supplier<T> build) {
        this.build = build;
    }

    @Override
    public T get() {
        if (build != null) {
            built = build.get();
            build = null;
        }
        return built;
    }
}
