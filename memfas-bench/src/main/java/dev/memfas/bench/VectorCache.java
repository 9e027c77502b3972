package dev.memfas.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The vectors one model gave for texts, kept in a file between evaluation runs: embedding LongMemEval's haystacks
 * (about 28,000 distinct turns, many of them hundreds of tokens) with two models takes half an hour on two cores, and
 * every run after the first reads them back in seconds. A vector is stored exactly as the model returned it, keyed by
 * the SHA-256 of the text; the file is {@code <model>.vectors}, a sequence of (32-byte key, int length, floats)
 * records, appended to.
 */
final class VectorCache {
    private final Path file;
    private final Map<String, float[]> vectors = new HashMap<>();

    private VectorCache(Path file) {
        this.file = file;
    }

    /** Opens the cache of {@code model} under {@code dir}; with {@code dir} null, an empty cache kept in memory. */
    static VectorCache open(Path dir, String model) throws IOException {
        if (!model.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("model id must be letters, digits, '.', '_' or '-': '" + model + "'");
        }
        if (dir == null) {
            return new VectorCache(null);
        }
        Files.createDirectories(dir);
        VectorCache cache = new VectorCache(dir.resolve(model + ".vectors"));
        if (Files.exists(cache.file)) {
            try (InputStream raw = Files.newInputStream(cache.file);
                    DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
                byte[] key = new byte[32];
                while (true) {
                    int first = in.read();
                    if (first < 0) {
                        break;
                    }
                    key[0] = (byte) first;
                    in.readFully(key, 1, key.length - 1);
                    int n = in.readInt();
                    if (n <= 0 || n > 65_536) {
                        throw new IOException("corrupt vector cache " + cache.file + ": vector length " + n);
                    }
                    float[] v = new float[n];
                    for (int i = 0; i < n; i++) {
                        v[i] = in.readFloat();
                    }
                    cache.vectors.put(HexFormat.of().formatHex(key), v);
                }
            } catch (EOFException truncated) {
                throw new IOException("corrupt vector cache " + cache.file + ": truncated record; delete the file",
                        truncated);
            }
        }
        return cache;
    }

    /** The vectors of {@code texts}, in order: cached ones as stored, the others from one call of {@code model}. */
    List<float[]> embed(List<String> texts, Function<List<String>, List<float[]>> model) {
        List<String> keys = texts.stream().map(VectorCache::key).toList();
        LinkedHashSet<String> missingKeys = new LinkedHashSet<>();
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            if (!vectors.containsKey(keys.get(i)) && missingKeys.add(keys.get(i))) {
                missing.add(texts.get(i));
            }
        }
        if (!missing.isEmpty()) {
            List<float[]> fresh = model.apply(missing);
            if (fresh.size() != missing.size()) {
                throw new IllegalStateException("the model returned " + fresh.size() + " vectors for "
                        + missing.size() + " texts");
            }
            List<String> freshKeys = new ArrayList<>(missingKeys);
            for (int i = 0; i < missing.size(); i++) {
                vectors.put(freshKeys.get(i), fresh.get(i));
            }
            append(freshKeys, fresh);
        }
        return keys.stream().map(vectors::get).toList();
    }

    private void append(List<String> keys, List<float[]> fresh) {
        if (file == null) {
            return;
        }
        try (OutputStream raw = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw, 1 << 16))) {
            for (int i = 0; i < keys.size(); i++) {
                out.write(HexFormat.of().parseHex(keys.get(i)));
                float[] v = fresh.get(i);
                out.writeInt(v.length);
                for (float x : v) {
                    out.writeFloat(x);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the vector cache " + file, e);
        }
    }

    private static String key(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
