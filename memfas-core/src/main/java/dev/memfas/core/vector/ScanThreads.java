package dev.memfas.core.vector;

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
public final class ScanThreads {
    public static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

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
    public static int start(int total, int part, int parts) {
        return (int) ((long) total * part / parts);
    }

    /** Runs {@code part.accept(i)} for every {@code i} in {@code [0, parts)}, returning when all have finished. */
    public static void run(int parts, IntConsumer part) {
        run(parts, parts, part, null);
    }

    /**
     * Runs {@code part.accept(i)} for every {@code i} in {@code [0, parts)} on up to {@code threads} threads, the
     * caller included, and {@code first} (if not null) on the calling thread before it takes parts, so that the helpers
     * scan while the caller does other work of the turn. Returns when everything has finished; an exception from
     * {@code first} is thrown after the parts are done.
     */
    static void run(int parts, int threads, IntConsumer part, Runnable first) {
        Job job = start(parts, threads, part);
        Throwable firstFailure = null;
        if (first != null) {
            try {
                first.run();
            } catch (Throwable t) {
                firstFailure = t;
            }
        }
        job.join(firstFailure);
    }

    /**
     * Hands the parts to up to {@code threads - 1} helpers and returns at once: the caller does other work, then
     * {@link Job#join joins}, taking the parts no helper has taken yet.
     */
    static Job start(int parts, int threads, IntConsumer part) {
        Job job = new Job(parts, part);
        if (parts > 1) {
            for (int h = 0; h < Math.min(parts, threads) - 1; h++) {
                Helpers.POOL.execute(job);
            }
        }
        return job;
    }

    /** The parts of one scan, claimed one at a time by the helpers and the caller. */
    static final class Job implements Runnable {
        private final int parts;
        private final IntConsumer part;
        private final AtomicInteger next = new AtomicInteger();
        private final CountDownLatch done;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        private Job(int parts, IntConsumer part) {
            this.parts = parts;
            this.part = part;
            this.done = new CountDownLatch(parts);
        }

        @Override
        public void run() {
            for (int i = next.getAndIncrement(); i < parts; i = next.getAndIncrement()) {
                try {
                    part.accept(i);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    done.countDown();
                }
            }
        }

        /**
         * Runs the parts not yet taken on the calling thread and waits for the rest; then throws {@code earlier} if
         * not null, else the first failure of a part.
         */
        void join(Throwable earlier) {
            run();
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
            Throwable t = earlier != null ? earlier : failure.get();
            if (t instanceof RuntimeException re) {
                throw re;
            }
            if (t instanceof Error e) {
                throw e;
            }
        }
    }
}
