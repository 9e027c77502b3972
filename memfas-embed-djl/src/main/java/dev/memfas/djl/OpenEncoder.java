package dev.memfas.djl;

import java.util.List;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * An encoder's lifetime: encodings run while it is open, and closing waits for those in progress before it releases
 * the model, so no call reads a released session. Thread-safe.
 */
final class OpenEncoder {
    private final SentenceEncoder encoder;
    private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private boolean closed;

    OpenEncoder(SentenceEncoder encoder) {
        this.encoder = encoder;
    }

    /**
     * Runs the encoding unless closed.
     *
     * @throws IllegalStateException if the encoder is closed
     */
    List<float[]> whileOpen(Supplier<List<float[]>> encoding) {
        lifecycle.readLock().lock();
        try {
            if (closed) {
                throw new IllegalStateException("embedder is closed: " + encoder.modelId());
            }
            return encoding.get();
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Releases the model and tokenizer, after encodings in progress finish. Idempotent. */
    void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            encoder.close();
        } finally {
            lifecycle.writeLock().unlock();
        }
    }
}
