/**
 * The contract of memfas: the curator an agent calls, the extension points (stores, embedders, tokenizers, telemetry
 * listeners) and the values they exchange. Depends on nothing but the JDK.
 */
module dev.memfas {
    exports dev.memfas;
}
