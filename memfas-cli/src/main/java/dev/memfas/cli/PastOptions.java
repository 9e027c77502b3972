package dev.memfas.cli;

import java.time.Instant;
import picocli.CommandLine.Option;

/** The options of the commands that read memories as of a moment: {@code context} and {@code recall}. */
final class PastOptions {
    @Option(names = "--as-of", paramLabel = "WHEN", description = "Ask about an earlier moment, YYYY-MM-DD or ISO-8601:"
            + " only what was true then, and written by then, is used.")
    String asOf;

    @Option(names = "--include-superseded", description = "Also use memories that are no longer true (superseded, or"
            + " past their end of validity), each marked with what replaced it.")
    boolean includeSuperseded;

    /** The moment asked about, or null for now. */
    Instant asOf() {
        return asOf == null ? null : ListCommand.instant("--as-of", asOf, false);
    }
}
