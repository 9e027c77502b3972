package dev.memfas.mcp;

import dev.memfas.ContextCurator;
import dev.memfas.Layer;
import dev.memfas.Memories;
import dev.memfas.Memory;
import dev.memfas.MemoryFilter;
import dev.memfas.RememberRequest;
import dev.memfas.Remembered;
import dev.memfas.Scope;
import dev.memfas.spi.StoredMemory;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The handlers of the tools that keep memories one by one: {@code remember}, {@code get}, {@code list},
 * {@code update}, {@code forget}. {@link MemfasTools} declares them and turns their exceptions into tool errors.
 */
final class MemoryTools {
    /** The source of the memories the tools write. */
    private static final String SOURCE = "mcp";

    private static final int MAX_LIST = MemfasTools.MAX_LIST;

    private final ContextCurator curator;

    MemoryTools(ContextCurator curator) {
        this.curator = curator;
    }

    McpSchema.CallToolResult remember(ToolArguments args) {
        String namespace = MemfasTools.namespace(args);
        Memory.Builder memory = Memory.builder(args.requiredString("text")).source(SOURCE).namespace(namespace);
        String id = args.optionalString("id");
        if (id != null && !id.isBlank()) {
            memory.id(id);
        }
        String kind = args.optionalString("kind");
        if (kind != null && !kind.isBlank()) {
            memory.kind(kind);
        }
        String scope = args.optionalString("scope");
        if (scope != null && !scope.isBlank()) {
            memory.scope(Scope.parse(scope));
        }
        List<String> tags = args.optionalStringList("tags");
        if (tags != null) {
            memory.tags(tags);
        }
        String source = args.optionalString("source");
        if (source != null && !source.isBlank()) {
            memory.source(source);
        }
        String author = args.optionalString("author");
        if (author != null) {
            memory.author(author);
        }
        Boolean pinned = args.optionalBoolean("pinned");
        if (pinned != null) {
            memory.pinned(pinned);
        }
        Instant created = args.optionalInstant("created_at");
        if (created != null) {
            memory.createdAt(created);
        }
        memory.expiresAt(args.optionalInstant("expires_at"));
        memory.validFrom(args.optionalInstant("valid_from"));
        memory.validUntil(args.optionalInstant("valid_until"));
        boolean named = id != null && !id.isBlank();
        String superseded = args.optionalString("supersedes");
        if (superseded != null && !superseded.isBlank()) {
            return rememberSuperseding(args, namespace, superseded, memory);
        }
        boolean replaced = named && curator.get(namespace, id).isPresent();
        RememberRequest request = RememberRequest.of(memory.build());
        String session = args.session();
        if (session != null) {
            request = request.session(session);
        }
        String project = args.optionalString("project");
        if (project != null && !project.isBlank()) {
            request = request.project(project);
        }
        String layer = args.optionalString("layer");
        if (layer != null && !layer.isBlank()) {
            request = request.layer(Layer.parse(layer));
        }
        Remembered remembered = curator.remember(request);
        Memory stored = remembered.memory();
        // A memory given without an id that a stored one already says is not stored again: that one gains evidence.
        boolean duplicate = !named && curator.get(namespace, stored.id()).map(s -> s.evidenceCount() > 1)
                .orElse(false);
        String text = duplicate ? "already remembered as " : replaced ? "replaced " : "remembered as ";
        return MemfasTools.ok(text + stored.id() + " in the " + remembered.layer().label() + " layer ("
                + remembered.reason() + ")", Map.of("memory_id", stored.id(), "layer", remembered.layer().label(),
                "reason", remembered.reason(), "duplicate", duplicate, "replaced", replaced));
    }

    /** {@code remember} with {@code supersedes}: the new memory takes the old one's place. */
    private McpSchema.CallToolResult rememberSuperseding(ToolArguments args, String namespace, String oldId,
            Memory.Builder memory) {
        for (String routing : List.of("session_id", "project", "layer")) {
            if (args.optionalString(routing) != null) {
                throw new IllegalArgumentException("'" + routing + "' does not go with 'supersedes': the new memory"
                        + " takes the old one's place");
            }
        }
        Memory stored = supersede(args, namespace, oldId, memory);
        String layer = Layer.of(stored).label();
        String reason = "supersedes " + oldId;
        return MemfasTools.ok("remembered as " + stored.id() + " in the " + layer + " layer (" + reason + ")",
                Map.of("memory_id", stored.id(), "layer", layer, "reason", reason, "duplicate", false,
                        "replaced", false));
    }

    /**
     * Supersedes a memory by a replacement, for {@code supersede} and {@code remember} with {@code supersedes}: the
     * kind, scope and tags the call does not name are the old memory's.
     */
    private Memory supersede(ToolArguments args, String namespace, String oldId, Memory.Builder replacement) {
        Memory old = curator.get(namespace, oldId).orElseThrow(() -> new IllegalArgumentException(
                "no memory '" + oldId + "' in namespace '" + namespace + "'")).memory();
        String kind = args.optionalString("kind");
        String scope = args.optionalString("scope");
        List<String> tags = args.optionalStringList("tags");
        replacement.kind(kind != null && !kind.isBlank() ? kind : old.kind())
                .scope(scope != null && !scope.isBlank() ? Scope.parse(scope) : old.scope())
                .tags(tags != null ? tags : old.tags());
        return curator.memories().supersede(oldId, replacement.build());
    }

    McpSchema.CallToolResult get(ToolArguments args) {
        String id = args.requiredString("memory_id");
        String namespace = MemfasTools.namespace(args);
        StoredMemory s = curator.get(namespace, id).orElseThrow(() -> new IllegalArgumentException(
                "no memory with id '" + id + "' in namespace '" + namespace + "'"));
        return MemfasTools.ok(s.memory().text(), ToolSchemas.memory(s));
    }

    McpSchema.CallToolResult list(ToolArguments args) {
        // Archived memories are kept but out of use: listed only when asked for, and then only they.
        MemoryFilter filter = ToolFilters.read(args,
                MemoryFilter.all().archived(Boolean.TRUE.equals(args.optionalBoolean("archived"))));
        if (Boolean.TRUE.equals(args.optionalBoolean("pinned"))) {
            filter = filter.pinned();
        }
        Integer limit = args.optionalInt("limit", 1, MAX_LIST);
        Integer offset = args.optionalInt("offset", 0, Integer.MAX_VALUE);
        int n = limit == null ? 20 : limit;
        int from = offset == null ? 0 : offset;
        // One more than asked, to know whether there is a next page.
        List<Memory> page = curator.memories().list(MemfasTools.namespace(args), filter, from, n + 1);
        List<Map<String, Object>> memories = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (Memory m : page.subList(0, Math.min(n, page.size()))) {
            memories.add(ToolSchemas.memory(m, null));
            text.append("[").append(m.id()).append("] (").append(m.createdAt().toString(), 0, 10).append(", ")
                    .append(m.kind()).append(") ").append(m.text().replace('\n', ' ')).append('\n');
        }
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("memories", memories);
        structured.put("next_offset", page.size() > n ? from + n : null);
        return MemfasTools.ok(memories.isEmpty() ? "no memories match" : text.toString().strip(), structured);
    }

    McpSchema.CallToolResult update(ToolArguments args) {
        String id = args.requiredString("memory_id");
        String namespace = MemfasTools.namespace(args);
        String text = args.optionalString("text");
        String kind = args.optionalString("kind");
        String scope = args.optionalString("scope");
        Scope parsedScope = scope == null ? null : Scope.parse(scope);
        List<String> tags = args.optionalStringList("tags");
        String source = args.optionalString("source");
        Boolean pinned = args.optionalBoolean("pinned");
        Instant expires = args.optionalInstant("expires_at");
        // The curator reads, changes and writes under its write lock, keeping the state before as a version.
        curator.memories().update(namespace, id, b -> {
            if (text != null) {
                b.text(text);
            }
            if (kind != null) {
                b.kind(kind);
            }
            if (parsedScope != null) {
                b.scope(parsedScope);
            }
            if (tags != null) {
                b.tags(tags);
            }
            if (source != null) {
                b.source(source);
            }
            if (pinned != null) {
                b.pinned(pinned);
            }
            if (expires != null) {
                b.expiresAt(expires);
            }
            return b;
        });
        StoredMemory stored = curator.get(namespace, id).orElseThrow();
        return MemfasTools.ok("updated " + id, ToolSchemas.memory(stored));
    }

    McpSchema.CallToolResult supersede(ToolArguments args) {
        String oldId = args.requiredString("memory_id");
        String namespace = MemfasTools.namespace(args);
        Memory.Builder b = Memory.builder(args.requiredString("text")).namespace(namespace).source(SOURCE)
                .validFrom(args.optionalInstant("valid_from"));
        String id = args.optionalString("id");
        if (id != null) {
            b.id(id);
        }
        Memory stored = supersede(args, namespace, oldId, b);
        return MemfasTools.ok("superseded " + oldId + " by " + stored.id(),
                ToolSchemas.memory(curator.get(namespace, stored.id()).orElseThrow()));
    }

    McpSchema.CallToolResult history(ToolArguments args) {
        String id = args.requiredString("memory_id");
        String namespace = MemfasTools.namespace(args);
        List<Memories.Version> versions = curator.memories().history(namespace, id);
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("no memory '" + id + "' in namespace '" + namespace + "'");
        }
        StringBuilder text = new StringBuilder();
        List<Map<String, Object>> out = new ArrayList<>();
        for (Memories.Version v : versions) {
            Memory m = v.memory();
            text.append('v').append(v.version()).append(' ').append(m.updatedAt()).append(" by ")
                    .append(m.author() == null ? "unknown" : m.author()).append(": ")
                    .append(v.version() == 1 ? "created" : "changed " + String.join(", ", v.changed())).append('\n');
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("version", v.version());
            o.put("changed", v.changed());
            o.put("memory", ToolSchemas.memory(m, null));
            out.add(o);
        }
        return MemfasTools.ok(text.toString().strip(), Map.of("versions", out));
    }

    McpSchema.CallToolResult forget(ToolArguments args) {
        String id = args.requiredString("memory_id");
        boolean found = curator.forget(MemfasTools.namespace(args), id);
        return MemfasTools.ok(found ? "forgot " + id : "no memory with id " + id,
                Map.of("memory_id", id, "found", found));
    }
}
