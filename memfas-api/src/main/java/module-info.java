/**
 * The contract of memfas, by audience: {@code dev.memfas} is what an agent calls (the curator, its requests and
 * responses, memories and scopes); {@code dev.memfas.spi} what store and model authors implement (stores, embedders,
 * tokenizers); {@code dev.memfas.policy} the pluggable decisions (saving, relevance, summaries, duplicates,
 * supersession, retention); {@code dev.memfas.upkeep} what runs beside the turns (maintenance, summaries,
 * orientation, events, usage feedback); {@code dev.memfas.telemetry} what telemetry listeners receive. Depends on
 * nothing but the JDK.
 */
module dev.memfas {
    exports dev.memfas;
    exports dev.memfas.policy;
    exports dev.memfas.spi;
    exports dev.memfas.telemetry;
    exports dev.memfas.upkeep;
    // Helpers that are no contract: the stop words and stemmer of the lexical indexes, and the value types' checks.
    exports dev.memfas.internal to dev.memfas.core, dev.memfas.sql, dev.memfas.sqlite;
}
