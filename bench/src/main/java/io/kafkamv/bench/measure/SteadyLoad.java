package io.kafkamv.bench.measure;

import io.kafkamv.bench.BenchStack;
import java.time.Duration;

/**
 * What views that stand cost while their source is written to: the CPU of kafka-mv and of the broker, idle and then with
 * rows written at a steady rate. Each commit of a view is a transaction whose markers the broker writes to every
 * partition the view wrote since the last, so this is where a shorter commit interval shows.
 */
public final class SteadyLoad {

    /**
     * CPU in cores (CPU seconds per second); the broker's are NaN when it runs in kafka-mv's JVM (embedded).
     * {@code rate}: the rows written per second over the {@code seconds} measured.
     */
    public record Result(double rate, double seconds, double idleServiceCores, double idleBrokerCores, double serviceCores,
                         double brokerCores) {
    }

    private static final Duration IDLE = Duration.ofSeconds(10);
    private static final Duration WRITING = Duration.ofSeconds(20);
    private static final int RATE = 1_000;
    private static final double SETTLED_CORES = 0.25;
    private static final int SETTLED_SECONDS = 3;
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(1);

    private SteadyLoad() {
    }

    /**
     * Measures the stack's CPU idle, then while its small topic (the many-views step's source) is written to. Idle
     * begins once kafka-mv's CPU has settled: a shared application just started again still initializes and restores
     * its tasks for some seconds after its group is stable.
     */
    public static Result measure(BenchStack stack) {
        awaitSettled(stack);
        Cpu idleStart = Cpu.of(stack);
        java.util.concurrent.locks.LockSupport.parkNanos(IDLE.toNanos());
        Cpu idleEnd = Cpu.of(stack);
        long written = stack.writeSmallAt(RATE, WRITING);
        Cpu writingEnd = Cpu.of(stack);
        double seconds = (writingEnd.nanos - idleEnd.nanos) / 1e9;
        return new Result(written / seconds, seconds,
            idleEnd.serviceCoresSince(idleStart), idleEnd.brokerCoresSince(idleStart),
            writingEnd.serviceCoresSince(idleEnd), writingEnd.brokerCoresSince(idleEnd));
    }

    /**
     * Until {@link #SETTLED_SECONDS} seconds in a row in each of which kafka-mv used less than {@link #SETTLED_CORES}
     * (one quiet second can fall between two stores restored), or {@link #SETTLE_TIMEOUT} has passed.
     */
    private static void awaitSettled(BenchStack stack) {
        long start = System.nanoTime();
        Cpu last = Cpu.of(stack);
        int quiet = 0;
        while (System.nanoTime() - start < SETTLE_TIMEOUT.toNanos()) {
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
            Cpu now = Cpu.of(stack);
            quiet = now.serviceCoresSince(last) < SETTLED_CORES ? quiet + 1 : 0;
            if (quiet == SETTLED_SECONDS) {
                System.out.printf("kafka-mv settled %.1f s after its views did%n", (System.nanoTime() - start) / 1e9);
                return;
            }
            last = now;
        }
        System.out.printf("kafka-mv did not settle below %.2f cores within %d s; measuring idle anyway%n", SETTLED_CORES,
            SETTLE_TIMEOUT.toSeconds());
    }

    private record Cpu(long nanos, Duration service, Duration broker) {

        static Cpu of(BenchStack stack) {
            return new Cpu(System.nanoTime(), stack.service().cpuTime(), stack.brokerCpuTime().orElse(null));
        }

        double serviceCoresSince(Cpu start) {
            return (service.toNanos() - start.service.toNanos()) / (double) (nanos - start.nanos);
        }

        double brokerCoresSince(Cpu start) {
            return broker == null ? Double.NaN : (broker.toNanos() - start.broker.toNanos()) / (double) (nanos - start.nanos);
        }
    }
}
