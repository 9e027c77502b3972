package dev.memfas.djl;

import dev.memfas.MemfasException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the two settings memfas needs from a sentence-transformers model directory: the pooling
 * ({@code 1_Pooling/config.json}) and the maximum sequence length ({@code sentence_bert_config.json}).
 */
final class SentenceTransformersConfig {
    private static final int DEFAULT_MAX_LENGTH = 512;
    private static final Pattern CLS = Pattern.compile("\"pooling_mode_cls_token\"\\s*:\\s*true");
    private static final Pattern MAX_SEQ = Pattern.compile("\"max_seq_length\"\\s*:\\s*(\\d+)");

    private SentenceTransformersConfig() {}

    static DjlEmbedder.Pooling pooling(Path dir) {
        String config = read(dir.resolve("1_Pooling").resolve("config.json"));
        return config != null && CLS.matcher(config).find() ? DjlEmbedder.Pooling.CLS : DjlEmbedder.Pooling.MEAN;
    }

    static int maxSequenceLength(Path dir) {
        String config = read(dir.resolve("sentence_bert_config.json"));
        if (config != null) {
            Matcher m = MAX_SEQ.matcher(config);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return DEFAULT_MAX_LENGTH;
    }

    private static String read(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new MemfasException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
