package dev.memfas;

import dev.memfas.internal.Checks;
import java.time.Instant;
import java.util.Objects;

/**
 * One search of {@link ContextCurator#recall(RecallRequest)}: the query, the namespace, how many hits, and which
 * memories count.
 *
 * <p>Built with {@link #builder(String)}. Immutable and thread-safe.
 *
 * @param query the text to rank memories against; not blank, at most {@link ContextRequest#MAX_QUERY_CHARS} chars
 * @param namespace the namespace to search
 * @param limit the most hits to return, in [1, {@link #MAX_LIMIT}]
 * @param asOf the moment the search is about, as for {@link ContextRequest#asOf()}; {@code null} for now
 * @param includeSuperseded whether memories no longer valid are found too, as for
 *     {@link ContextRequest#includeSuperseded()}
 * @param filter only memories this filter lets through, its topic included; {@code null} for any
 */
public record RecallRequest(String query, String namespace, int limit, Instant asOf, boolean includeSuperseded,
        MemoryFilter filter) {
    /** The most hits one search returns. */
    public static final int MAX_LIMIT = 1000;
    /** The hits returned when no limit is set. */
    public static final int DEFAULT_LIMIT = 10;

    /**
     * Validates the components.
     *
     * @throws NullPointerException if the query or namespace is null
     * @throws IllegalArgumentException if the query is blank or too long, the namespace is malformed, or the limit is
     *     out of range
     */
    public RecallRequest {
        Checks.query(query, ContextRequest.MAX_QUERY_CHARS);
        Checks.identifier(Objects.requireNonNull(namespace, "namespace"), "namespace", 128);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("recall limit must be in [1, " + MAX_LIMIT + "]: " + limit);
        }
    }

    /**
     * Starts a search for the given query.
     *
     * @throws NullPointerException if the query is null (the other checks run in {@link Builder#build()})
     */
    public static Builder builder(String query) {
        return new Builder(Objects.requireNonNull(query, "query"));
    }

    /** Builds a {@link RecallRequest}. Not thread-safe. */
    public static final class Builder {
        private final String query;
        private String namespace = Memory.DEFAULT_NAMESPACE;
        private int limit = DEFAULT_LIMIT;
        private Instant asOf;
        private boolean includeSuperseded;
        private MemoryFilter filter;

        private Builder(String query) {
            this.query = query;
        }

        /** The namespace to search; {@code "default"} when not set. */
        public Builder namespace(String namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /** The most hits to return; {@value RecallRequest#DEFAULT_LIMIT} when not set. */
        public Builder limit(int limit) {
            this.limit = limit;
            return this;
        }

        /** The moment the search is about; now when not set. */
        public Builder asOf(Instant asOf) {
            this.asOf = asOf;
            return this;
        }

        /** Whether memories no longer valid are found too; false when not set. */
        public Builder includeSuperseded(boolean includeSuperseded) {
            this.includeSuperseded = includeSuperseded;
            return this;
        }

        /** Only memories this filter lets through, its topic included; any when not set. */
        public Builder filter(MemoryFilter filter) {
            this.filter = filter;
            return this;
        }

        /** Builds the request, running every check. */
        public RecallRequest build() {
            return new RecallRequest(query, namespace, limit, asOf, includeSuperseded, filter);
        }
    }
}
