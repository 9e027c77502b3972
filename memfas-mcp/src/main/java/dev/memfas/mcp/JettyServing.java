package dev.memfas.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.function.IntFunction;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * One Jetty server on one address serving one servlet context, started: what memfas's HTTP servers (MCP, the
 * inspector) run on. Its threads are daemons, so a server left open does not keep the JVM alive.
 */
final class JettyServing {
    /** How long stopping waits for the requests in progress. */
    private static final long STOP_MILLIS = 1_000;

    private final Server jetty;
    private final URI root;

    /**
     * Binds to {@code host:port} and starts serving the context made for the port bound (the one asked for, or the one
     * chosen for port 0).
     *
     * @param what what is served, for the error ("MCP", "the inspector")
     * @param threads the name of its threads
     * @param acceptQueue the connections the kernel holds before they are accepted; 0 for Jetty's default
     * @throws UncheckedIOException if the port cannot be bound or the server does not start; what making the context
     *     throws is thrown as it is, the port released
     */
    JettyServing(String what, String threads, String host, int port, int acceptQueue,
            IntFunction<ServletContextHandler> context) {
        QueuedThreadPool pool = new QueuedThreadPool();
        pool.setName(threads);
        pool.setDaemon(true);
        this.jetty = new Server(pool);
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(host);
        connector.setPort(port);
        if (acceptQueue > 0) {
            connector.setAcceptQueueSize(acceptQueue);
        }
        jetty.addConnector(connector);
        try {
            connector.open();
            jetty.setHandler(context.apply(connector.getLocalPort()));
            jetty.start();
        } catch (RuntimeException e) {
            stop();
            throw e;
        } catch (Exception e) {
            stop();
            throw new UncheckedIOException(new IOException("cannot serve " + what + " on " + host + ":" + port + ": "
                    + e.getMessage(), e));
        }
        String bracketed = host.contains(":") ? "[" + host + "]" : host;
        this.root = URI.create("http://" + bracketed + ":" + connector.getLocalPort() + "/");
    }

    /** Where it is reached, such as {@code http://127.0.0.1:8707/}. */
    URI root() {
        return root;
    }

    /** Stops serving, letting the requests in progress finish for at most a second. */
    void stop() {
        try {
            jetty.setStopTimeout(STOP_MILLIS);
            jetty.stop();
        } catch (Exception e) {
            // Stopping a server that did not start, or whose threads are already gone, has nothing left to do.
        }
    }
}
