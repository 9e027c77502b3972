package dev.memfas.core.write;

import java.security.SecureRandom;

/**
 * The id a memory gets when it is stored without one: {@code m} and 21 random digits, such as
 * {@code m048213977460219385520}.
 *
 * <p>Every item of a context carries its memory's id, so the id is paid for in every turn that shows it. A random UUID
 * costs 24 tokens on average inside a label ({@code cl100k_base}, measured over 2,000 of them): as much as a short
 * memory's text. These cost 9: a letter, then digits, which the tokenizer reads three at a time. The 21 digits hold
 * 70 random bits, so a store of 100 million generated ids holds two equal ones with a probability of about 5 in a
 * million; the letter keeps the id a string for tools that would read a bare number (YAML front matter, JavaScript).
 * Drawn from a {@link SecureRandom}, as {@link java.util.UUID#randomUUID()} is, so that processes started at the same
 * moment do not draw the same ids. Thread-safe.
 */
public final class MemoryIds {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Digits drawn per call of the generator: 10^7 fits an int. */
    private static final int CHUNK = 10_000_000;

    private MemoryIds() {
    }

    /** A new random id. */
    public static String random() {
        char[] id = new char[22];
        id[0] = 'm';
        for (int chunk = 0; chunk < 3; chunk++) {
            int value = RANDOM.nextInt(CHUNK);
            for (int d = 7; d >= 1; d--) {
                id[chunk * 7 + d] = (char) ('0' + value % 10);
                value /= 10;
            }
        }
        return new String(id);
    }
}
