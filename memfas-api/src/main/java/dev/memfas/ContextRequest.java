package dev.memfas;

import dev.memfas.internal.Checks;
import dev.memfas.policy.RelevanceJudge;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One turn's request for context: the query, whose session it is, how many tokens the context may take, and what the
 * caller is working on.
 *
 * <p>Built with {@link #builder(String)}. Immutable and thread-safe.
 *
 * @param query the text to find memories for, usually the user's latest message; at most {@link #MAX_QUERY_CHARS}
 *     chars, and not blank unless empty. Empty asks for the start of a session, what an agent resumes from before it
 *     has a question: the session's working memory, the pinned memories and then the namespace's latest, newest
 *     first (of the request's project and filter), within the budget. Nothing is searched and no trigger fires
 * @param sessionId the conversation this turn belongs to; session state (topic, hot memories) is kept per id.
 *     {@code null} makes the turn stateless
 * @param tokenBudget the most tokens the returned context may take; empty means the level's or tier's, else the
 *     curator's default. A ceiling: the context stops where relevance ends, below the curator's relative floor
 *     ({@code Memfas.Builder.relativeFloor}), unless {@code fillBudget} is set
 * @param recentHistory the last few turns of the conversation, oldest first; used to detect the topic
 * @param includeTriggers whether triggers may fire on this query
 * @param namespace the namespace to read memories from
 * @param project the project the caller is working in, lower-cased; {@code null} when unknown
 * @param language the language the caller is working in, lower-cased; {@code null} when unknown
 * @param task a short description of the caller's task; {@code null} when unknown. Written to telemetry with the
 *     turn (field {@code task}), left out when queries are redacted
 * @param baselineTokens the size, in tokens, of the full history the caller would otherwise send; only used for
 *     telemetry (tokens saved, compression ratio)
 * @param recordAccess whether the memories included count as accessed (their access count and last access rise, which
 *     ranks them higher in later turns) and join the session's hot memories; true by default. A caller that only
 *     looks, such as a person asking from the command line, sets it to false so that looking changes nothing
 * @param explain whether the response lists every candidate left out and why ({@link ContextResponse#dropped()});
 *     false by default, as it costs a little work per candidate
 * @param asOf the moment the context is about, for a look at the world as it was then: only memories valid at that
 *     moment ({@link Memory#isValidAt(Instant)}) and created at or before it are used; {@code null} (the default) for
 *     now, on the curator's clock, where memories created later are used too
 * @param includeSuperseded whether memories no longer valid (superseded, or past their {@code validUntil}) are used
 *     too; each is shown with the id of its replacement. False by default
 * @param scopeBudgets the shares of the budget kept for each kind of scope; {@code null} for the curator's (by default
 *     none: the best memories fill the budget whatever their scope)
 * @param groupByScope whether the relevant memories are listed under one heading per scope, the most specific first
 *     ({@code <scope name="project:hydra">}); false by default. The headings are counted in the budget
 * @param level a named size for this request: its budget (unless {@code tokenBudget} is given), minimum score and most
 *     memories; {@code null} for the curator's settings
 * @param tier a named split of a whole prompt: this request's budget is the tier's memory share (unless
 *     {@code tokenBudget} is given); {@code null} for none. A request has a level or a tier, not both
 * @param filter only memories this filter lets through (by date, author, kind, scope, tags, source and topic) may be
 *     in the context; {@code null} for any
 * @param state the state keys the context may include, as keys or globs ({@code session/*}); the relevant ones among
 *     them (chosen by the curator's {@link RelevanceJudge}, or by their words) are rendered whole or cut into the
 *     context's state section and counted in its budget. Empty (the default) for none
 * @param relevanceCheck whether the curator's {@link RelevanceJudge} (if it has one) chooses which of the best
 *     memories found are relevant to the query before the budget is filled: the others are left out. A judge that
 *     fails, is late or answers with an id it was not shown leaves the turn as scored. False by default
 * @param fillBudget whether the budget is filled with the best memories down to the minimum score, however far below
 *     the turn's best they score, as a caller that pays for the budget anyway may want; false by default (the
 *     budget is a ceiling)
 */
public record ContextRequest(
        String query,
        String sessionId,
        OptionalInt tokenBudget,
        List<String> recentHistory,
        boolean includeTriggers,
        String namespace,
        String project,
        String language,
        String task,
        OptionalInt baselineTokens,
        boolean recordAccess,
        boolean explain,
        Instant asOf,
        boolean includeSuperseded,
        ScopeBudgets scopeBudgets,
        boolean groupByScope,
        ContextLevel level,
        ContextTier tier,
        MemoryFilter filter,
        List<String> state,
        boolean relevanceCheck,
        boolean fillBudget) {

    /** The longest query accepted, in chars. */
    public static final int MAX_QUERY_CHARS = 100_000;

    /**
     * Validates the components.
     *
     * @throws NullPointerException if query, tokenBudget, recentHistory, namespace or baselineTokens is null
     * @throws IllegalArgumentException if the query is blank (but not empty) or too long, the session id or namespace
     *     is blank or malformed, the budget is not positive or the baseline is negative
     */
    public ContextRequest {
        if (!Objects.requireNonNull(query, "query").isEmpty()) {
            Checks.query(query, MAX_QUERY_CHARS);
        }
        if (sessionId != null) {
            Checks.identifier(sessionId, "session id", 256);
        }
        Objects.requireNonNull(tokenBudget, "tokenBudget");
        if (tokenBudget.isPresent() && tokenBudget.getAsInt() <= 0) {
            throw new IllegalArgumentException("token budget must be positive: " + tokenBudget.getAsInt());
        }
        recentHistory = List.copyOf(Objects.requireNonNull(recentHistory, "recentHistory"));
        Checks.identifier(Objects.requireNonNull(namespace, "namespace"), "namespace", 128);
        project = project == null ? null
                : Checks.identifier(project.strip(), "project", 128).toLowerCase(java.util.Locale.ROOT);
        language = language == null ? null
                : Checks.identifier(language.strip(), "language", 128).toLowerCase(java.util.Locale.ROOT);
        if (task != null && task.length() > 10_000) {
            throw new IllegalArgumentException("task is too long: " + task.length() + " chars (at most 10000)");
        }
        state = List.copyOf(Objects.requireNonNull(state, "state"));
        for (String key : state) {
            if (key.isBlank() || key.length() > 512) {
                throw new IllegalArgumentException("a state key or glob must be 1 to 512 chars and not blank: '"
                        + Checks.printable(key) + "'");
            }
        }
        if (level != null && tier != null) {
            throw new IllegalArgumentException("a request has a level or a tier, not both: level " + level.label()
                    + ", tier " + tier.label());
        }
        Objects.requireNonNull(baselineTokens, "baselineTokens");
        if (baselineTokens.isPresent() && baselineTokens.getAsInt() < 0) {
            throw new IllegalArgumentException("baseline tokens must not be negative: " + baselineTokens.getAsInt());
        }
    }

    /**
     * Starts a request for the given query; an empty one asks for the start of a session (see {@link ContextRequest}).
     *
     * @throws NullPointerException if the query is null (the other checks run in {@link Builder#build()})
     */
    public static Builder builder(String query) {
        return new Builder(Objects.requireNonNull(query, "query"));
    }

    /** Builds a {@link ContextRequest}. Not thread-safe. */
    public static final class Builder {
        private final String query;
        private String sessionId;
        private OptionalInt tokenBudget = OptionalInt.empty();
        private List<String> recentHistory = new ArrayList<>();
        private boolean includeTriggers = true;
        private String namespace = Memory.DEFAULT_NAMESPACE;
        private String project;
        private String language;
        private String task;
        private OptionalInt baselineTokens = OptionalInt.empty();
        private boolean recordAccess = true;
        private boolean explain;
        private Instant asOf;
        private boolean includeSuperseded;
        private ScopeBudgets scopeBudgets;
        private boolean groupByScope;
        private ContextLevel level;
        private ContextTier tier;
        private MemoryFilter filter;
        private List<String> state = List.of();
        private boolean relevanceCheck;
        private boolean fillBudget;

        private Builder(String query) {
            this.query = query;
        }

        /** The session; without one the turn is stateless. */
        public Builder sessionId(String sessionId) {
            this.sessionId = sessionId;
            return this;
        }

        /**
         * The token budget for this turn.
         *
         * @throws IllegalArgumentException if not positive
         */
        public Builder tokenBudget(int tokenBudget) {
            if (tokenBudget <= 0) {
                throw new IllegalArgumentException("token budget must be positive: " + tokenBudget);
            }
            this.tokenBudget = OptionalInt.of(tokenBudget);
            return this;
        }

        /** The last few turns of the conversation, oldest first. */
        public Builder recentHistory(Collection<String> recentHistory) {
            this.recentHistory = new ArrayList<>(Objects.requireNonNull(recentHistory, "recentHistory"));
            return this;
        }

        /** Whether triggers may fire; true when not set. */
        public Builder includeTriggers(boolean includeTriggers) {
            this.includeTriggers = includeTriggers;
            return this;
        }

        /** The namespace to read; {@code "default"} when not set. */
        public Builder namespace(String namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /** The project the caller works in. */
        public Builder project(String project) {
            this.project = project;
            return this;
        }

        /** The language the caller works in. */
        public Builder language(String language) {
            this.language = language;
            return this;
        }

        /** The caller's task. */
        public Builder task(String task) {
            this.task = task;
            return this;
        }

        /**
         * The size of the full history the caller would otherwise send, for telemetry.
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder baselineTokens(int baselineTokens) {
            if (baselineTokens < 0) {
                throw new IllegalArgumentException("baseline tokens must not be negative: " + baselineTokens);
            }
            this.baselineTokens = OptionalInt.of(baselineTokens);
            return this;
        }

        /** Whether the included memories count as accessed; true when not set. */
        public Builder recordAccess(boolean recordAccess) {
            this.recordAccess = recordAccess;
            return this;
        }

        /** Whether the response explains what was left out; false when not set. */
        public Builder explain(boolean explain) {
            this.explain = explain;
            return this;
        }

        /** The moment the context is about; now when not set. */
        public Builder asOf(Instant asOf) {
            this.asOf = asOf;
            return this;
        }

        /** The shares of the budget kept for each kind of scope; the curator's when not set. */
        public Builder scopeBudgets(ScopeBudgets scopeBudgets) {
            this.scopeBudgets = scopeBudgets;
            return this;
        }

        /** Whether the relevant memories are listed under a heading per scope; false when not set. */
        public Builder groupByScope(boolean groupByScope) {
            this.groupByScope = groupByScope;
            return this;
        }

        /** A named size for this request (budget, minimum score, most memories); the curator's when not set. */
        public Builder level(ContextLevel level) {
            this.level = level;
            return this;
        }

        /** A named split of the whole prompt, whose memory share is this request's budget; none when not set. */
        public Builder tier(ContextTier tier) {
            this.tier = tier;
            return this;
        }

        /** Only memories this filter lets through may be in the context; any when not set. */
        public Builder filter(MemoryFilter filter) {
            this.filter = filter;
            return this;
        }

        /**
         * The state keys the context may include, as keys or globs ({@code "plan"}, {@code "session/*"}); none when
         * not set.
         */
        public Builder state(String... keysOrGlobs) {
            this.state = List.of(keysOrGlobs);
            return this;
        }

        /**
         * Whether the curator's relevance judge chooses which of the best memories found go in the context; false
         * when not set.
         */
        public Builder relevanceCheck(boolean relevanceCheck) {
            this.relevanceCheck = relevanceCheck;
            return this;
        }

        /**
         * Whether the budget is filled down to the minimum score rather than ending where relevance ends; false when
         * not set.
         */
        public Builder fillBudget(boolean fillBudget) {
            this.fillBudget = fillBudget;
            return this;
        }

        /** Whether memories no longer valid are used too; false when not set. */
        public Builder includeSuperseded(boolean includeSuperseded) {
            this.includeSuperseded = includeSuperseded;
            return this;
        }

        /** Builds the request, running every check. */
        public ContextRequest build() {
            return new ContextRequest(query, sessionId, tokenBudget, recentHistory, includeTriggers, namespace,
                    project, language, task, baselineTokens, recordAccess, explain, asOf, includeSuperseded,
                    scopeBudgets, groupByScope, level, tier, filter, state, relevanceCheck, fillBudget);
        }
    }
}
