package dev.memfas.spring.boot;

import dev.memfas.core.Memfas;

/**
 * Changes the builder of the auto-configured curator before it is built: a bean of this type is applied after the
 * {@code memfas.*} properties, in the beans' order, for anything the properties do not say (scoring weights,
 * supersession, a relevance judge, …).
 */
@FunctionalInterface
public interface MemfasBuilderCustomizer {
    void customize(Memfas.Builder builder);
}
