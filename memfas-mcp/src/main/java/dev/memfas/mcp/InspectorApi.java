package dev.memfas.mcp;

import dev.memfas.ContextCurator;
import dev.memfas.ContextItem;
import dev.memfas.ContextRequest;
import dev.memfas.ContextResponse;
import dev.memfas.DroppedMemory;
import dev.memfas.Memories;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.RecallHit;
import dev.memfas.RecallRequest;
import dev.memfas.ScoreBreakdown;
import dev.memfas.spi.StoredMemory;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The inspector's calls, JSON in and out, each in a namespace the caller may use ({@link ClientAccess} put its
 * {@link Tenants} on the request). Reads are GETs; changes are POSTs of {@code application/json}, which a page of
 * another site cannot send without the server's leave. Bad input is a 400 whose {@code error} names the problem.
 */
final class InspectorApi extends HttpServlet {
    private static final Logger LOG = LoggerFactory.getLogger(InspectorApi.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A page of the list: enough to scroll, little enough to draw at once. */
    private static final int PAGE = 50;
    /** The most links followed along a supersession chain, each way. */
    private static final int MOST_CHAIN = 50;
    /** The largest body taken: an edited memory's text with room to spare. */
    private static final int MAX_BODY = 1 << 20;

    private final ContextCurator curator;
    private final Function<String, String> report;

    InspectorApi(ContextCurator curator, Function<String, String> report) {
        this.curator = curator;
        this.report = report;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(request, response, () -> {
            Tenants tenants = tenants(request);
            String path = String.valueOf(request.getPathInfo());
            if (path.equals("/namespaces")) {
                return Map.of("namespaces", tenants.namespaces(), "default", tenants.defaultNamespace(),
                        "report", report != null);
            }
            String namespace = tenants.resolve(request.getParameter("namespace"));
            return switch (path) {
                case "/memories" -> memories(namespace, request);
                case "/memory" -> memory(namespace, required(request.getParameter("id"), "id"));
                case "/report" -> Map.of("html", report == null ? "" : report.apply(namespace));
                default -> throw new NotFound(path);
            };
        });
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(request, response, () -> {
            String type = String.valueOf(request.getContentType());
            if (!type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
                throw new IllegalArgumentException("a change must be sent as application/json, not " + type);
            }
            byte[] body = request.getInputStream().readNBytes(MAX_BODY + 1);
            if (body.length > MAX_BODY) {
                throw new IllegalArgumentException("the body is over " + MAX_BODY + " bytes");
            }
            JsonNode in;
            try {
                in = JSON.readTree(new String(body, StandardCharsets.UTF_8));
            } catch (JacksonException e) {
                throw new IllegalArgumentException("the body is not JSON");
            }
            if (in == null || !in.isObject()) {
                throw new IllegalArgumentException("the body must be a JSON object");
            }
            String namespace = tenants(request).resolve(text(in, "namespace", false));
            Memories memories = curator.memories();
            return switch (String.valueOf(request.getPathInfo())) {
                case "/replay" -> replay(namespace, in);
                case "/edit" -> json(memories.update(namespace, id(in), b -> b.text(text(in, "text", true))));
                case "/pin" -> json(memories.update(namespace, id(in), b -> b.pinned(flag(in, "pinned"))));
                case "/restore" -> json(memories.restore(namespace, id(in)));
                case "/forget" -> Map.of("forgotten", curator.forget(namespace, id(in)));
                default -> throw new NotFound(request.getPathInfo());
            };
        });
    }

    /** A page of the namespace's live (or archived) memories, newest first; or, with {@code q}, a search's best. */
    private Map<String, Object> memories(String namespace, HttpServletRequest request) {
        MemoryFilter filter = MemoryFilter.all();
        String kind = blankAsNull(request.getParameter("kind"));
        String source = blankAsNull(request.getParameter("source"));
        if (kind != null) {
            filter = filter.kind(kind);
        }
        if (source != null) {
            filter = filter.source(source);
        }
        if ("true".equals(request.getParameter("pinned"))) {
            filter = filter.pinned();
        }
        // Live memories, or the archived ones alone: one list each, as the page's checkbox says.
        filter = filter.archived("true".equals(request.getParameter("archived")));
        String query = blankAsNull(request.getParameter("q"));
        List<Map<String, Object>> out = new ArrayList<>();
        if (query != null) {
            for (RecallHit hit : curator.recall(RecallRequest.builder(query).namespace(namespace).limit(PAGE)
                    .filter(filter).build())) {
                Map<String, Object> m = json(hit.memory());
                m.put("score", hit.score());
                out.add(m);
            }
            return Map.of("memories", out, "search", true);
        }
        int offset = Math.max(0, integer(request.getParameter("offset"), "offset"));
        List<Memory> page = curator.memories().list(namespace, filter, offset, PAGE + 1);
        page.stream().limit(PAGE).forEach(m -> out.add(json(m)));
        return Map.of("memories", out, "search", false, "offset", offset, "more", page.size() > PAGE);
    }

    /** One memory, its versions and the chain of memories it replaced and that replaced it, oldest first. */
    private Map<String, Object> memory(String namespace, String id) {
        Memory m = curator.get(namespace, id).map(StoredMemory::memory)
                .orElseThrow(() -> new IllegalArgumentException("namespace '" + namespace + "' has no memory '" + id
                        + "'"));
        List<Map<String, Object>> versions = new ArrayList<>();
        for (Memories.Version v : curator.memories().history(namespace, id)) {
            Map<String, Object> version = json(v.memory());
            version.put("version", v.version());
            version.put("changed", v.changed());
            versions.add(version);
        }
        List<Map<String, Object>> chain = new ArrayList<>();
        for (String older : m.supersedes()) {
            chain.add(stored(namespace, older));
        }
        chain.add(json(m));
        String next = m.supersededBy();
        for (int i = 0; next != null && i < MOST_CHAIN; i++) {
            Optional<Memory> newer = curator.get(namespace, next).map(StoredMemory::memory);
            chain.add(newer.map(InspectorApi::json).orElse(missing(next)));
            next = newer.map(Memory::supersededBy).orElse(null);
        }
        Map<String, Object> out = json(m);
        out.put("history", versions);
        out.put("chain", chain);
        return out;
    }

    /** What {@code getContext} would send for a query: nothing recorded, every candidate left out explained. */
    private Map<String, Object> replay(String namespace, JsonNode in) {
        ContextRequest.Builder b = ContextRequest.builder(text(in, "query", true)).namespace(namespace)
                .recordAccess(false).explain(true);
        JsonNode budget = in.get("budget");
        if (budget != null && !budget.isNull()) {
            if (!budget.isIntegralNumber()) {
                throw new IllegalArgumentException("budget must be a whole number: " + budget);
            }
            b.tokenBudget(budget.asInt());
        }
        ContextResponse r = curator.getContext(b.build());
        List<Map<String, Object>> items = new ArrayList<>();
        for (ContextItem item : r.items()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", item.memoryId());
            m.put("source", item.source());
            m.put("section", item.section().name().toLowerCase(java.util.Locale.ROOT));
            m.put("layer", item.layer().name().toLowerCase(java.util.Locale.ROOT));
            m.put("score", item.score());
            m.put("factors", factors(item.factors()));
            m.put("tokens", item.tokens());
            m.put("truncated", item.truncated());
            m.put("text", item.text());
            items.add(m);
        }
        List<Map<String, Object>> dropped = new ArrayList<>();
        for (DroppedMemory d : r.dropped()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", d.memoryId());
            m.put("score", d.score());
            m.put("reason", d.reason().name().toLowerCase(java.util.Locale.ROOT));
            m.put("duplicate_of", d.duplicateOf());
            m.put("text", curator.get(namespace, d.memoryId()).map(s -> s.memory().text()).orElse(""));
            dropped.add(m);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("context", r.context());
        out.put("tokens_used", r.tokensUsed());
        out.put("budget", r.budget());
        out.put("memories_scored", r.memoriesScored());
        out.put("latency_ms", r.latency().toNanos() / 1e6);
        out.put("items", items);
        out.put("dropped", dropped);
        return out;
    }

    private static Map<String, Object> factors(ScoreBreakdown f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("semantic", f.semantic());
        m.put("lexical", f.lexical());
        m.put("recency", f.recency());
        m.put("frequency", f.frequency());
        m.put("topic", f.topic());
        m.put("scope", f.scope());
        m.put("priority", f.priority());
        m.put("hot", f.hot());
        m.put("neighbor", f.neighbor());
        return m;
    }

    private Map<String, Object> stored(String namespace, String id) {
        return curator.get(namespace, id).map(s -> json(s.memory())).orElse(missing(id));
    }

    private static Map<String, Object> missing(String id) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("missing", true);
        return m;
    }

    static Map<String, Object> json(Memory m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", m.id());
        out.put("text", m.text());
        out.put("kind", m.kind());
        out.put("source", m.source());
        out.put("author", m.author());
        out.put("scope", m.scope().toString());
        out.put("tags", m.tags());
        out.put("created_at", String.valueOf(m.createdAt()));
        out.put("updated_at", String.valueOf(m.updatedAt()));
        out.put("pinned", m.pinned());
        out.put("importance", m.importance());
        out.put("archived", m.isArchived());
        out.put("supersedes", m.supersedes());
        out.put("superseded_by", m.supersededBy());
        out.put("valid_from", m.validFrom() == null ? null : m.validFrom().toString());
        out.put("valid_until", m.validUntil() == null ? null : m.validUntil().toString());
        out.put("metadata", m.metadata());
        return out;
    }

    /** A call's body, run; its result or its error written as JSON. */
    private void answer(HttpServletRequest request, HttpServletResponse response, Call call) throws IOException {
        Object result;
        int status = HttpServletResponse.SC_OK;
        try {
            result = call.run();
        } catch (NotFound e) {
            status = HttpServletResponse.SC_NOT_FOUND;
            result = Map.of("error", "no such call: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            status = HttpServletResponse.SC_BAD_REQUEST;
            result = Map.of("error", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("inspector call {} {} failed", request.getMethod(), request.getRequestURI(), e);
            status = HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
            result = Map.of("error", "the call failed: " + e.getMessage());
        }
        byte[] bytes = JSON.writeValueAsString(result).getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json; charset=utf-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    @FunctionalInterface
    private interface Call {
        Object run() throws IOException;
    }

    private static final class NotFound extends RuntimeException {
        NotFound(String path) {
            super(path, null, false, false);
        }
    }

    private static Tenants tenants(HttpServletRequest request) {
        return (Tenants) request.getAttribute(Tenants.CONTEXT_KEY);
    }

    private static String id(JsonNode in) {
        return text(in, "id", true);
    }

    private static String text(JsonNode in, String field, boolean required) {
        JsonNode v = in.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new IllegalArgumentException("'" + field + "' is required");
            }
            return null;
        }
        if (!v.isString()) {
            throw new IllegalArgumentException("'" + field + "' must be a string: " + v);
        }
        return v.asString();
    }

    private static boolean flag(JsonNode in, String field) {
        JsonNode v = in.get(field);
        if (v == null || !v.isBoolean()) {
            throw new IllegalArgumentException("'" + field + "' must be true or false: " + v);
        }
        return v.asBoolean();
    }

    private static String required(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("'" + name + "' is required");
        }
        return value;
    }

    private static String blankAsNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static int integer(String value, String name) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + name + "' must be a whole number: '" + value + "'");
        }
    }
}
