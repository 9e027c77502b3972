package dev.memfas.mcp;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Lets the HTTP server stop without cutting off a call: counts the {@code POST} requests in progress (the calls; a
 * {@code GET} is a client's open event stream, which lasts as long as its session and is ended by closing the
 * sessions), and once {@link #drain} is called, refuses new requests with 503 and waits for those in progress.
 *
 * <p>A reply the transport streams after its servlet returned is still in progress: its request is counted until the
 * asynchronous response completes.
 */
final class RequestDrain implements Filter {
    private int inProgress;
    private boolean draining;

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        boolean counted = "POST".equals(request.getMethod());
        synchronized (this) {
            if (draining) {
                HttpServletResponse response = (HttpServletResponse) res;
                response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
                response.setContentType("application/json");
                response.getWriter().write("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"the"
                        + " server is stopping\"}}");
                return;
            }
            if (counted) {
                inProgress++;
            }
        }
        boolean async = false;
        try {
            chain.doFilter(req, res);
            if (counted && request.isAsyncStarted()) {
                async = true;
                request.getAsyncContext().addListener(new AsyncListener() {
                    @Override
                    public void onComplete(AsyncEvent event) {
                        done();
                    }

                    @Override
                    public void onTimeout(AsyncEvent event) {}

                    @Override
                    public void onError(AsyncEvent event) {}

                    @Override
                    public void onStartAsync(AsyncEvent event) {}
                });
            }
        } finally {
            if (counted && !async) {
                done();
            }
        }
    }

    private synchronized void done() {
        inProgress--;
        notifyAll();
    }

    /**
     * Refuses new requests from now on and waits until those in progress are answered, for at most the given time.
     *
     * @return whether every request in progress was answered in time
     */
    synchronized boolean drain(long maxMillis) {
        draining = true;
        long deadline = System.nanoTime() + maxMillis * 1_000_000;
        while (inProgress > 0) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
