/** The tests every {@link dev.memfas.spi.MemoryStore} passes, for store authors (JUnit 5 and AssertJ). */
module dev.memfas.testkit {
    requires transitive dev.memfas;
    requires transitive org.junit.jupiter.api;
    requires org.assertj.core;

    exports dev.memfas.testkit;
    // JUnit finds and runs the contract's test methods reflectively.
    opens dev.memfas.testkit to org.junit.platform.commons;
}
