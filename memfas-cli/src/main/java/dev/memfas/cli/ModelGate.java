package dev.memfas.cli;

import dev.memfas.ContextCurator;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;

/**
 * A curator whose calls wait, before they reach it, until the model has finished loading: the MCP server loads its
 * model beside the client's first calls, and a call that came during the load would otherwise wait inside the turn,
 * where the turn's latency, in the telemetry and the report, would count the second or more of loading as the turn's.
 * The client waits the same; the telemetry says what the turn took.
 *
 * <p>The wait ends when the load ends, loaded or failed: a failed load then fails the call, as it would have.
 */
final class ModelGate {
    private ModelGate() {}

    static ContextCurator waitingFor(ContextCurator curator, CountDownLatch modelSettled) {
        return (ContextCurator) Proxy.newProxyInstance(ContextCurator.class.getClassLoader(),
                new Class<?>[] {ContextCurator.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return switch (method.getName()) {
                            case "equals" -> proxy == args[0];
                            case "hashCode" -> System.identityHashCode(proxy);
                            default -> "ModelGate[" + curator + "]";
                        };
                    }
                    modelSettled.await();
                    try {
                        return method.invoke(curator, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
