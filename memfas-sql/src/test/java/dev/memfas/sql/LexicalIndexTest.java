package dev.memfas.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.spi.LexicalHit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class LexicalIndexTest {
    @Test
    void terms_areFts5s_foldedStemmedAndCounted() {
        assertThat(Fts5Terms.of("Deploying the Café's 1990s builds, naïvely!"))
                .containsExactly("deploi", "the", "cafe", "s", "1990", "build", "naiv");
        assertThat(Fts5Terms.query("the deploys AND the Deploy? (NEAR)")).containsExactly("deploi", "deploi", "near");
        assertThat(Fts5Terms.query("the and of it")).isEmpty();
    }

    @Test
    void search_ranksRareWordsAndShortTextsFirst_tiesById_withinTheLimit() {
        LexicalIndex index = new LexicalIndex(0);
        for (int i = 0; i < 20; i++) {
            index.put("common" + i, "the deploy pipeline run number " + i);
        }
        index.put("rare", "the deploy of the ledger service");
        index.put("long", "ledger " + "padding words here ".repeat(40));

        List<LexicalHit> hits = index.search(Fts5Terms.query("ledger deploy"), 30);

        assertThat(hits).hasSize(22).extracting(LexicalHit::memoryId).startsWith("rare", "long");
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
        List<LexicalHit> tied = index.search(Fts5Terms.query("pipeline"), 3);
        assertThat(tied).extracting(LexicalHit::memoryId).containsExactly("common0", "common1", "common10");
    }

    @Test
    void changesApplied_rankAsAnIndexBuiltAfresh_alsoOnceRemovedPostingsAreRewritten() {
        LexicalIndex changed = new LexicalIndex(0);
        for (int i = 0; i < 3000; i++) {
            changed.put("m" + i, "alpha beta " + (i % 7 == 0 ? "gamma " : "") + "word" + (i % 50) + " item" + i);
        }
        Map<String, String> texts = new HashMap<>();
        List<String> touched = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            if (i % 3 == 0) {
                touched.add("m" + i); // deleted: no text
            } else if (i % 5 == 0) {
                touched.add("m" + i);
                texts.put("m" + i, "gamma delta replaced " + i);
            }
        }
        changed.apply(touched, texts, 42);

        LexicalIndex fresh = new LexicalIndex(0);
        for (int i = 0; i < 3000; i++) {
            if (i % 3 != 0) {
                fresh.put("m" + i, texts.getOrDefault("m" + i,
                        "alpha beta " + (i % 7 == 0 ? "gamma " : "") + "word" + (i % 50) + " item" + i));
            }
        }
        assertThat(changed.upTo()).isEqualTo(42);
        assertThat(changed.size()).isEqualTo(fresh.size()).isEqualTo(2000);
        for (String query : List.of("gamma", "alpha delta", "word7 item10", "replaced beta", "missing")) {
            assertThat(changed.search(Fts5Terms.query(query), 50)).as(query)
                    .isEqualTo(fresh.search(Fts5Terms.query(query), 50));
        }
        assertThat(changed.bytes()).isLessThan(fresh.bytes() * 2);
    }
}
