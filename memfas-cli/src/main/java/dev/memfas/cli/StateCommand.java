package dev.memfas.cli;

import dev.memfas.State;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code memfas state save | load | list | search | delete | clear}: the key-value state beside the memories. */
@Command(name = "state", description = "Key-value state beside the memories: JSON values under keys.",
        subcommands = {StateCommand.Save.class, StateCommand.Load.class, StateCommand.ListKeys.class,
            StateCommand.Search.class, StateCommand.Delete.class, StateCommand.Clear.class})
final class StateCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main main;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return Main.OK;
    }

    @Command(name = "save", description = "Save a JSON value under a key, replacing any value there.")
    static final class Save implements Callable<Integer> {
        @CommandLine.ParentCommand
        StateCommand parent;

        @Parameters(index = "0", paramLabel = "KEY")
        String key;

        @Parameters(index = "1", paramLabel = "JSON", description = "One JSON value: {\"step\": 2}, \"text\", 42, ...")
        String json;

        @Override
        public Integer call() {
            try (Workspace w = parent.main.open(Workspace.Access.WRITE, false)) {
                w.curator.state().save(parent.main.namespace(), key, json);
            }
            parent.main.out().println("saved " + key);
            return Main.OK;
        }
    }

    @Command(name = "load", description = "Print the JSON value saved under a key.")
    static final class Load implements Callable<Integer> {
        @CommandLine.ParentCommand
        StateCommand parent;

        @Parameters(paramLabel = "KEY")
        String key;

        @Override
        public Integer call() {
            try (Workspace w = parent.main.open(Workspace.Access.READ, false)) {
                String value = w.curator.state().load(parent.main.namespace(), key).orElse(null);
                if (value == null) {
                    parent.main.err().println("memfas: no state key '" + key + "'");
                    return Main.INPUT;
                }
                parent.main.out().println(value);
            }
            return Main.OK;
        }
    }

    @Command(name = "list", description = "The keys, each with when it was saved and its size.")
    static final class ListKeys implements Callable<Integer> {
        @CommandLine.ParentCommand
        StateCommand parent;

        @Option(names = "--preview", description = "Also show each value's first 100 characters.")
        boolean preview;

        @Option(names = "--json", description = "One JSON object per line.")
        boolean json;

        @Override
        public Integer call() {
            PrintWriter out = parent.main.out();
            try (Workspace w = parent.main.open(Workspace.Access.READ, false)) {
                for (State.Entry e : w.curator.state().keys(parent.main.namespace(), preview)) {
                    if (json) {
                        Map<String, Object> o = new LinkedHashMap<>();
                        o.put("key", e.key());
                        o.put("updated_at", e.updatedAt().toString());
                        o.put("size", e.size());
                        if (preview) {
                            o.put("preview", e.preview());
                        }
                        Output.json(out, o);
                    } else {
                        out.printf(Locale.ROOT, "%s  %7d  %s%s%n", e.updatedAt(), e.size(), Main.oneLine(e.key(), 80),
                                preview ? "  " + Main.oneLine(e.preview(), 100) : "");
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "search", description = "The keys matching a glob (* any run, ? one character, [abc] a class),"
            + " with their values.")
    static final class Search implements Callable<Integer> {
        @CommandLine.ParentCommand
        StateCommand parent;

        @Parameters(paramLabel = "GLOB")
        String glob;

        @Option(names = "--limit", paramLabel = "N", description = "At most this many, 1 to 1000 (default 100).")
        int limit = 100;

        @Override
        public Integer call() {
            try (Workspace w = parent.main.open(Workspace.Access.READ, false)) {
                w.curator.state().search(parent.main.namespace(), glob, limit)
                        .forEach((k, v) -> parent.main.out().println(k + "\t" + Main.oneLine(v, 200)));
            }
            return Main.OK;
        }
    }

    @Command(name = "delete", description = "Delete a key.")
    static final class Delete implements Callable<Integer> {
        @CommandLine.ParentCommand
        StateCommand parent;

        @Parameters(paramLabel = "KEY")
        String key;

        @Override
        public Integer call() {
            try (Workspace w = parent.main.open(Workspace.Access.READ, false)) {
                if (!w.curator.state().delete(parent.main.namespace(), key)) {
                    parent.main.err().println("memfas: no state key '" + key + "'");
                    return Main.INPUT;
                }
            }
            parent.main.out().println("deleted " + key);
            return Main.OK;
        }
    }

    @Command(name = "clear", description = "Delete every key of the namespace.")
    static final class Clear implements Callable<Integer> {
        @CommandLine.ParentCommand
        StateCommand parent;

        @Override
        public Integer call() {
            int n;
            try (Workspace w = parent.main.open(Workspace.Access.READ, false)) {
                n = w.curator.state().clear(parent.main.namespace());
            }
            parent.main.out().println("deleted " + n + (n == 1 ? " key" : " keys"));
            return Main.OK;
        }
    }
}
