package dev.memfas.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a command that serves until Ctrl-C ({@code memfas mcp --http}, {@code memfas ui}) stops: the hook stops the
 * server, then waits for the command to close its store, so the JVM does not halt in the middle of a write. Not a join
 * of the serving thread: once that thread has closed the store it calls {@code System.exit}, which waits for the hook.
 */
final class StopHook {
    /** How long a stop waits for the store to close after the server stopped, at most. */
    private static final int STORE_CLOSE_SECONDS = 10;

    private final CountDownLatch storeClosed = new CountDownLatch(1);

    /** When the JVM is asked to stop, runs {@code stopServer} on a thread named {@code thread}, then waits. */
    void install(Runnable stopServer, String thread) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopServer.run();
            try {
                storeClosed.await(STORE_CLOSE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, thread));
    }

    /** Says the command has closed its store, whichever way it ended. */
    void storeClosed() {
        storeClosed.countDown();
    }
}
