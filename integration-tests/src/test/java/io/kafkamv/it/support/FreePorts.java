package io.kafkamv.it.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports nobody listens on right now, for services a test starts.
 *
 * <p>A port is handed out here but bound later, by a child JVM, seconds afterwards. A port of the kernel's
 * ephemeral range ({@code ServerSocket(0)}) can be taken in between as the local port of any outgoing
 * connection (a Kafka client's, a JDBC driver's): CI saw a service fail to start with "Address already in
 * use". So ports come from below that range, where only listeners bind.
 */
public final class FreePorts {

    private static final int LOWEST = 15_000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int FIRST_EPHEMERAL = firstEphemeralPort();

    /** Each port at most once per test run: one found free stays free until its service binds it, later. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    public static int next() {
        // Test JVMs running side by side (failsafe's forks) each search their own share of the range.
        int forks = Math.max(1, Integer.getInteger("kafkamv.it.forks", 1));
        int fork = Math.floorMod(Integer.getInteger("kafkamv.it.fork", 1) - 1, forks);
        int span = (FIRST_EPHEMERAL - LOWEST) / forks;
        int lowest = LOWEST + fork * span;
        // A random start keeps two test runs on one machine (a build and a benchmark) out of each other's way.
        int start = ThreadLocalRandom.current().nextInt(span);
        for (int i = 0; i < span; i++) {
            int port = lowest + (start + i) % span;
            if (!HANDED_OUT.contains(port) && isFree(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("No free port between " + lowest + " and " + (lowest + span));
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return socket.isBound();
        } catch (IOException e) {
            return false;
        }
    }

    /** Linux's default is 32768; other systems' lowest ephemeral port is higher still. */
    private static int firstEphemeralPort() {
        try {
            String range = Files.readString(EPHEMERAL_RANGE, StandardCharsets.US_ASCII).trim();
            return Math.max(LOWEST + 1_000, Integer.parseInt(range.split("\\s+")[0]));
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
