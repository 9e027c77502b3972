package dev.memfas.core.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Memory;
import dev.memfas.core.text.NormalizedText;
import dev.memfas.spi.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class TokenCountCacheTest {
    /** Counts characters, and remembers what it was asked to count. */
    private final List<String> counted = new ArrayList<>();
    private final Tokenizer tokenizer = new Tokenizer() {
        @Override
        public int count(String text) {
            counted.add(text);
            return text.length();
        }

        @Override
        public String truncate(String text, int maxTokens) {
            return text.substring(0, Math.min(text.length(), maxTokens));
        }

        @Override
        public String id() {
            return "characters";
        }
    };

    @Test
    void count_countsAMemoryOnce() {
        TokenCountCache cache = new TokenCountCache(tokenizer, 100);
        Memory m = Memory.builder("hello").id("a").build();

        assertThat(cache.count(m, "<m>hello</m>")).isEqualTo(12);
        assertThat(cache.count(m, "<m>hello</m>")).isEqualTo(12);
        assertThat(cache.cached(m)).isEqualTo(12);

        assertThat(counted).hasSize(1);
    }

    @Test
    void count_changedMemory_orSameIdInAnotherNamespace_isCountedAnew() {
        TokenCountCache cache = new TokenCountCache(tokenizer, 100);
        Memory first = Memory.builder("hello").id("a").build();
        Memory changed = Memory.builder("hello again").id("a").build();
        Memory elsewhere = Memory.builder("hi").id("a").namespace("other").build();
        cache.count(first, "hello");

        assertThat(cache.cached(changed)).isEqualTo(-1);
        assertThat(cache.cached(elsewhere)).isEqualTo(-1);
        assertThat(cache.count(changed, "hello again")).isEqualTo(11);
        assertThat(cache.count(elsewhere, "hi")).isEqualTo(2);
        // An equal memory that is another instance shares the count.
        assertThat(cache.cached(Memory.builder("hello again").id("a").build())).isEqualTo(11);
        assertThat(counted).containsExactly("hello", "hello again", "hi");
    }

    @Test
    void find_keepsTheNormalizedTextHash_ofTheMemoryItWasCountedFor() {
        TokenCountCache cache = new TokenCountCache(tokenizer, 100);
        Memory m = Memory.builder("Hello,  World!").id("a").build();
        cache.put(m, 5);

        TokenCountCache.Entry entry = cache.find(m);
        assertThat(entry.tokens()).isEqualTo(5);
        assertThat(entry.textHash()).isEqualTo(NormalizedText.hash("hello world"))
                .isNotEqualTo(NormalizedText.hash("hello there"));
        assertThat(cache.find(Memory.builder("Hello there").id("a").build())).isNull();
    }

    @Test
    void cut_isRememberedForItsCapAndAge_andOnlyForTheMemoryItWasMadeOf() {
        TokenCountCache cache = new TokenCountCache(tokenizer, 100);
        Memory m = Memory.builder("a long text").id("a").build();
        TokenCountCache.Cut cut = new TokenCountCache.Cut(40, "2 days ago", 6, 38);

        cache.putCut(m, cut);
        assertThat(cache.cut(m, 40, "2 days ago")).as("no count cached, so no cut either").isNull();

        cache.put(m, 90);
        cache.putCut(m, cut);
        assertThat(cache.cut(m, 40, "2 days ago")).isEqualTo(cut);
        assertThat(cache.cut(Memory.builder("a long text").id("a").build(), 40, "2 days ago")).isEqualTo(cut);
        assertThat(cache.cut(m, 41, "2 days ago")).isNull();
        assertThat(cache.cut(m, 40, "3 days ago")).isNull();
        assertThat(cache.cut(Memory.builder("a longer text").id("a").build(), 40, "2 days ago")).isNull();
        assertThat(cache.cached(m)).isEqualTo(90);

        TokenCountCache.Cut wider = new TokenCountCache.Cut(80, null, 11, 75);
        cache.putCut(m, wider);
        assertThat(cache.cut(m, 80, null)).isEqualTo(wider);
        assertThat(cache.cut(m, 40, "2 days ago")).as("kept beside the other cap's").isEqualTo(cut);
    }

    @Test
    void putCut_keepsTheLatestCutsOfAMemory_oneForEachCapAndAge() {
        TokenCountCache cache = new TokenCountCache(tokenizer, 100);
        Memory m = Memory.builder("a long text").id("a").build();
        cache.put(m, 90);
        for (int cap = 10; cap < 10 + TokenCountCache.MOST_CUTS + 1; cap++) {
            cache.putCut(m, new TokenCountCache.Cut(cap, null, 3, cap - 1));
        }
        cache.putCut(m, new TokenCountCache.Cut(12, null, 4, 11));

        assertThat(cache.cut(m, 10, null)).as("the oldest, past the most kept").isNull();
        assertThat(cache.cut(m, 12, null)).isEqualTo(new TokenCountCache.Cut(12, null, 4, 11));
        for (int cap = 11; cap < 10 + TokenCountCache.MOST_CUTS + 1; cap++) {
            assertThat(cache.cut(m, cap, null)).isNotNull();
        }
        assertThat(cache.find(m).cuts()).hasSize(TokenCountCache.MOST_CUTS);
    }

    @Test
    void put_pastTheLimit_startsOver() {
        TokenCountCache cache = new TokenCountCache(tokenizer, 3);
        List<Memory> memories = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            memories.add(Memory.builder("text " + i).id("m" + i).build());
            cache.put(memories.get(i), i);
        }

        assertThat(cache.cached(memories.get(0))).isEqualTo(-1);
        assertThat(cache.cached(memories.get(2))).isEqualTo(-1);
        assertThat(cache.cached(memories.get(3))).isEqualTo(3);
    }
}
