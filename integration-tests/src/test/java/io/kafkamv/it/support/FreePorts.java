package io.kafkamv.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Ports nobody listens on right now, for services a test starts. */
public final class FreePorts {

    private FreePorts() {
    }

    /** Each port at most once per test run: one found free stays free until its service binds it, later. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    public static int next() {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
