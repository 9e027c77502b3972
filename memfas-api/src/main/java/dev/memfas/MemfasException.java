package dev.memfas;

/**
 * A failure of the world around memfas: an I/O error, a corrupt or locked store, a missing model, an embedder that
 * returned an unusable vector.
 *
 * <p>Misuse of the API (a blank query, a negative budget) is reported with the standard
 * {@link IllegalArgumentException}, {@link IllegalStateException} or {@link NullPointerException} instead. The message
 * always says what went wrong and with which value or file; the cause, when there is one, is attached.
 */
public class MemfasException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates an exception with the given message. */
    public MemfasException(String message) {
        super(message);
    }

    /** Creates an exception with the given message and cause. */
    public MemfasException(String message, Throwable cause) {
        super(message, cause);
    }
}
