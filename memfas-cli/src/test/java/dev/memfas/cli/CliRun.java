package dev.memfas.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of the command through its real entry point, over one SQLite file, lexical only (fast).
 *
 * @param exit the exit code
 * @param out what it printed on standard output
 * @param err what it printed on standard error
 */
record CliRun(int exit, String out, String err) {
    static CliRun of(Path db, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db", db.toString(), "--model", "none"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(exit, out.toString(), err.toString());
    }
}
