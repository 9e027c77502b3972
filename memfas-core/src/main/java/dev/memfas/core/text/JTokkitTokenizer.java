package dev.memfas.core.text;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.memfas.spi.Tokenizer;
import java.util.Objects;

/**
 * Counts tokens with a jtokkit BPE encoding, treating special-token markers as ordinary text.
 *
 * <p>Thread-safe: jtokkit encodings are immutable.
 */
public final class JTokkitTokenizer implements Tokenizer {
    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private final Encoding encoding;

    JTokkitTokenizer(EncodingType type) {
        this.encoding = REGISTRY.getEncoding(Objects.requireNonNull(type, "encoding"));
    }

    public static JTokkitTokenizer cl100k() {
        return new JTokkitTokenizer(EncodingType.CL100K_BASE);
    }

    @Override
    public int count(String text) {
        return text.isEmpty() ? 0 : encoding.countTokensOrdinary(withoutLoneSurrogates(text));
    }

    /**
     * The text with each lone surrogate replaced by U+FFFD, as a UTF-8 encoder would; jtokkit rejects lone surrogates
     * with an error. The replacement keeps every index, so prefixes of the result map to prefixes of the input.
     */
    static String withoutLoneSurrogates(String text) {
        char[] chars = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                if (chars == null) {
                    chars = text.toCharArray();
                }
                chars[i] = '\uFFFD';
            }
        }
        return chars == null ? text : new String(chars);
    }

    @Override
    public String truncate(String text, int maxTokens) {
        if (maxTokens < 0) {
            throw new IllegalArgumentException("max tokens must not be negative: " + maxTokens);
        }
        if (maxTokens == 0 || text.isEmpty()) {
            return "";
        }
        String clean = withoutLoneSurrogates(text);
        var result = encoding.encodeOrdinary(clean, maxTokens);
        if (!result.isTruncated()) {
            return text;
        }
        // The last token may end inside a multi-byte character; keep only the part of the decoded prefix that is
        // really a prefix of the text, then back off until the count holds (BPE counts are not monotone in length).
        String decoded = encoding.decode(result.getTokens());
        int end = commonPrefixLength(clean, decoded);
        String prefix = text.substring(0, end);
        while (!prefix.isEmpty() && count(prefix) > maxTokens) {
            end = previousCodePointBoundary(text, end);
            prefix = text.substring(0, end);
        }
        return prefix;
    }

    private static int commonPrefixLength(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        if (i > 0 && i < a.length() && Character.isHighSurrogate(a.charAt(i - 1))
                && Character.isLowSurrogate(a.charAt(i))) {
            i--;
        }
        return i;
    }

    private static int previousCodePointBoundary(String text, int end) {
        int i = end - 1;
        if (i > 0 && Character.isLowSurrogate(text.charAt(i)) && Character.isHighSurrogate(text.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    @Override
    public String id() {
        return encoding.getName();
    }
}
