package dev.memfas.mcp;

import dev.memfas.ContextCurator;
import dev.memfas.ContextRequest;
import java.util.Objects;

/**
 * What both servers, on standard input and output and over HTTP, are told before they start: the curator, the budget of
 * calls that name none, where the agent works and the one namespace served. Each setter checks its value as a request
 * would, so a bad one fails at configuration and not at the first call.
 */
final class ServerOptions {
    final ContextCurator curator;
    Integer defaultBudget;
    String project;
    String language;
    String namespace;
    String version = "0.1.0";
    String tools = ToolSelection.DEFAULT;

    ServerOptions(ContextCurator curator) {
        this.curator = Objects.requireNonNull(curator, "curator");
    }

    void defaultBudget(int tokens) {
        if (tokens < 1 || tokens > MemfasTools.MAX_BUDGET) {
            throw new IllegalArgumentException("default budget must be in [1, " + MemfasTools.MAX_BUDGET + "]: " + tokens);
        }
        this.defaultBudget = tokens;
    }

    void workingContext(String project, String language) {
        ContextRequest r = ContextRequest.builder("check").project(project).language(language).build();
        this.project = r.project();
        this.language = r.language();
    }

    void namespace(String namespace) {
        this.namespace = ContextRequest.builder("check").namespace(Objects.requireNonNull(namespace, "namespace"))
                .build().namespace();
    }

    void version(String version) {
        this.version = Objects.requireNonNull(version, "version");
    }

    void tools(String selection) {
        // Checked now, against the tools a server has, so a bad name fails at configuration.
        this.tools = Objects.requireNonNull(selection, "tools");
        toolsServed();
    }

    MemfasTools toolsServed() {
        return new MemfasTools(curator, defaultBudget, new WorkingContext(project, language, namespace), tools);
    }
}
