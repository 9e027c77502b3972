package dev.memfas.djl;

/**
 * Keeps DJL from reaching the network. Left alone, DJL probes the EC2 metadata service and sends usage tracking when
 * its engine or a tokenizer starts; it skips both when {@code ai.djl.offline} (or {@code DJL_OFFLINE}) and
 * {@code OPT_OUT_TRACKING} are true. DJL reads them when it acts, so setting them before the first DJL call is enough.
 * A value the user set, as a system property or an environment variable, is never overridden.
 */
final class OfflineDefaults {
    static final String OFFLINE_PROPERTY = "ai.djl.offline";
    static final String OFFLINE_ENV = "DJL_OFFLINE";
    static final String TRACKING = "OPT_OUT_TRACKING";

    private OfflineDefaults() {}

    static synchronized void apply() {
        if (System.getProperty(OFFLINE_PROPERTY) == null && System.getenv(OFFLINE_ENV) == null) {
            System.setProperty(OFFLINE_PROPERTY, "true");
        }
        if (System.getProperty(TRACKING) == null && System.getenv(TRACKING) == null) {
            System.setProperty(TRACKING, "true");
        }
    }
}
