package dev.memfas.core.curator;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a plug-in the curator does not trust to answer ({@link dev.memfas.policy.RelevanceJudge},
 * {@link dev.memfas.policy.SavePolicy}): on a daemon thread of its own, for at most a timeout, and gives up on it (with
 * one warning in the log) when it throws or is late, so the caller can fall back to its own answer. Thread-safe.
 */
final class GuardedCall implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GuardedCall.class);

    private final String what;
    private final Duration timeout;
    private final ExecutorService threads;

    /** @param what the plug-in, as the log names it ("the relevance judge") */
    GuardedCall(String what, Duration timeout) {
        this.what = what;
        this.timeout = timeout;
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "memfas-" + what.replace("the ", "").replace(' ', '-'));
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The plug-in's answer, or null if it threw, took longer than the timeout, or the wait was interrupted.
     *
     * @param fallback what the caller does instead, for the log ("choosing by words")
     */
    <T> T call(Callable<T> plugIn, String fallback) {
        CompletableFuture<T> answer = CompletableFuture.supplyAsync(() -> {
            try {
                return plugIn.call();
            } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }, threads);
        try {
            return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            LOG.warn("{} took longer than {}; {}", what, timeout, fallback);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | RuntimeException e) {
            LOG.warn("{} failed ({}); {}", what, e.getCause() != null ? e.getCause().getMessage() : e.getMessage(),
                    fallback);
        }
        return null;
    }

    /** Logs that the plug-in's answer was not usable, and what the caller does instead. */
    void refused(String why, String fallback) {
        LOG.warn("{} {}; {}", what, why, fallback);
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
