package dev.memfas.core;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Runs the parts of one scan on the calling thread and on shared helper threads (daemons named
 * {@code memfas-scan-N}, one fewer than the processors, started on first use).
 *
 * <p>The caller claims parts too and never waits for a helper to start: when the helpers are busy with other scans the
 * caller runs every part itself, so a scan never takes longer than it would on one thread plus the hand-off.
 */
final class ScanThreads {
    static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

    private ScanThreads() {}

    private static final class Helpers {
        static final ExecutorService POOL = Executors.newFixedThreadPool(Math.max(1, PROCESSORS - 1), new Factory());
    }

    private static final class Factory implements java.util.concurrent.ThreadFactory {
        private final AtomicInteger next = new AtomicInteger(1);

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "memfas-scan-" + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        }
    }

    /** Where part {@code part} of {@code total} items split into {@code parts} even runs begins. */
    static int start(int total, int part, int parts) {
        return (int) ((long) total * part / parts);
    }

    /** Runs {@code part.accept(i)} for every {@code i} in {@code [0, parts)}, returning when all have finished. */
    static void run(int parts, IntConsumer part) {
        run(parts, parts, part, null);
    }

    /**
     * Runs {@code part.accept(i)} for every {@code i} in {@code [0, parts)} on up to {@code threads} threads, the
     * caller included, and {@code first} (if not null) on the calling thread before it takes parts, so that the helpers
     * scan while the caller does other work of the turn. Returns when everything has finished; an exception from
     * {@code first} is thrown after the parts are done.
     */
    static void run(int parts, int threads, IntConsumer part, Runnable first) {
        if (parts <= 1) {
            if (first != null) {
                first.run();
            }
            if (parts == 1) {
                part.accept(0);
            }
            return;
        }
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(parts);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable worker = () -> {
            for (int i = next.getAndIncrement(); i < parts; i = next.getAndIncrement()) {
                try {
                    part.accept(i);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    done.countDown();
                }
            }
        };
        for (int h = 0; h < Math.min(parts, threads) - 1; h++) {
            Helpers.POOL.execute(worker);
        }
        Throwable firstFailure = null;
        if (first != null) {
            try {
                first.run();
            } catch (Throwable t) {
                firstFailure = t;
            }
        }
        worker.run();
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                // The parts read arrays the caller's lock protects: the caller must not return before they finish.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable t = firstFailure != null ? firstFailure : failure.get();
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }
}
