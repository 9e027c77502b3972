package dev.memfas.bench;

import dev.memfas.ContextCurator;
import dev.memfas.Conversation;
import dev.memfas.Memory;
import dev.memfas.ScoringWeights;
import dev.memfas.policy.SupersessionPolicy;
import dev.memfas.core.Memfas;
import dev.memfas.core.lifecycle.SentenceFactExtractor;
import dev.memfas.policy.FactExtractor;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A configuration measured next to the defaults: a name and the settings it changes ({@code semantic:0.6,
 * recency:0,candidates:200}; weights by their {@link ScoringWeights} names, {@code candidates}, {@code minScore},
 * {@code relativeFloor}, {@code duplicates}, {@code neighbors}, {@code neighborShare},
 * {@code maxItemTokens}, {@code timeWindow}, {@code supersede} (applied at that similarity), {@code floor} for the
 * relevance floor, {@code meaningAlone} for the meaning-alone floor, {@code worldKnowledge} for the world-knowledge
 * raise, {@code summarize} (memories older than that many days consolidated once the conversation is stored),
 * {@code unnamed:1} (the turns stored without ids, so the curator names them, as {@code remember(text)} would have
 * it), and {@code facts} (the facts memfas's {@link SentenceFactExtractor} takes from the turns stored beside them, as
 * {@code Memories.remember(Conversation, ...)} stores them: {@code facts:1} counts a fact in a context as nothing,
 * so that only what facts crowd out shows; {@code facts:2} counts it as its turn, a key that finds its value)).
 */
record EvalVariant(String name, Map<String, Double> settings) {
    static EvalVariant parse(String spec) {
        int eq = spec.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("variant must be NAME=key:value,...: '" + spec + "'");
        }
        Map<String, Double> settings = new LinkedHashMap<>();
        for (String kv : spec.substring(eq + 1).split(",")) {
            String[] parts = kv.split(":");
            if (parts.length != 2) {
                throw new IllegalArgumentException("variant setting must be key:value: '" + kv + "'");
            }
            settings.put(parts[0].trim(), Double.parseDouble(parts[1].trim()));
        }
        String name = spec.substring(0, eq);
        if (name.equals("memfas") || name.equals(EvalMain.FILLED) || name.equals("memfas-pg")
                || EvalMain.BASELINES.contains(name)) {
            throw new IllegalArgumentException("variant name '" + name + "' is taken by a system of the run");
        }
        EvalVariant v = new EvalVariant(name, settings);
        v.configure(Memfas.newBuilder());
        return v;
    }

    Memfas.Builder configure(Memfas.Builder b) {
        ScoringWeights d = ScoringWeights.DEFAULT;
        double[] w = {d.semantic(), d.lexical(), d.recency(), d.frequency(), d.topic(), d.scope(), d.priority(),
            d.hot()};
        List<String> names = List.of("semantic", "lexical", "recency", "frequency", "topic", "scope", "priority",
                "hot");
        for (Map.Entry<String, Double> e : settings.entrySet()) {
            int i = names.indexOf(e.getKey());
            switch (e.getKey()) {
                case "candidates" -> b.candidateLimit(e.getValue().intValue());
                case "minScore" -> b.minScore(e.getValue());
                case "relativeFloor" -> b.relativeFloor(e.getValue());
                case "duplicates" -> b.duplicateSimilarity(e.getValue());
                case "neighbors" -> b.neighborRadius(e.getValue().intValue());
                case "floor" -> b.relevanceFloor(e.getValue());
                case "meaningAlone" -> b.meaningAloneFloor(e.getValue());
                case "worldKnowledge" -> b.worldKnowledgeRaise(e.getValue());
                case "neighborShare" -> b.neighborShare(e.getValue());
                case "maxItemTokens" -> b.maxItemTokens(e.getValue().intValue());
                case "timeWindow" -> b.timeWindowWeight(e.getValue());
                case "supersede" -> b.supersession(SupersessionPolicy.apply(e.getValue()));
                case "summarize", "unnamed", "facts" -> {
                    // Applied when the conversation is stored: see summarizeDays() and unnamed().
                }
                default -> {
                    if (i < 0) {
                        throw new IllegalArgumentException("unknown variant setting '" + e.getKey()
                                + "'; use a weight name (" + names + "), candidates, minScore, duplicates,"
                                + " neighbors, neighborShare, maxItemTokens, timeWindow, supersede,"
                                + " summarize, unnamed, facts, floor or meaningAlone");
                    }
                    w[i] = e.getValue();
                }
            }
        }
        return b.weights(new ScoringWeights(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]));
    }

    /** With {@code unnamed:1}, the turns are stored without ids and the curator gives them its own. */
    boolean unnamed() {
        return settings.getOrDefault("unnamed", 0.0) != 0;
    }

    /**
     * Stores a conversation's turns in a curator, without their ids if {@code unnamed} (as {@code remember(text)}
     * would), and returns the ids the curator gave them, each to its turn's id (empty when they kept their own).
     */
    static Map<String, String> remember(ContextCurator curator, List<Memory> turns, boolean unnamed) {
        if (!unnamed) {
            curator.rememberAll(turns);
            return Map.of();
        }
        List<Memory> stored = curator.rememberAll(turns.stream().map(m -> m.toBuilder().id(null).build()).toList());
        Map<String, String> turnId = new HashMap<>();
        for (int j = 0; j < stored.size(); j++) {
            turnId.put(stored.get(j).id(), turns.get(j).id());
        }
        return turnId;
    }

    /** 0 without facts, 1 with facts counted as nothing, 2 with facts counted as their turns. */
    int facts() {
        return settings.getOrDefault("facts", 0.0).intValue();
    }

    /**
     * Stores the facts memfas's own extractor takes from the turns (each message alone, as it reads them), each dated
     * and attributed as its turn; returns each fact's id to its turn's id if {@code asKeys}, else an empty map.
     */
    static Map<String, String> rememberFacts(ContextCurator curator, List<Memory> turns, boolean asKeys) {
        List<Conversation.Message> messages = turns.stream()
                .map(t -> new Conversation.Message(t.author() == null ? "someone" : t.author(), t.text(),
                        t.createdAt()))
                .toList();
        List<Memory> facts = new java.util.ArrayList<>();
        Map<String, String> turnOf = new HashMap<>();
        int n = 0;
        for (FactExtractor.Fact f : new SentenceFactExtractor().extract(messages)) {
            Memory turn = turns.get(f.from().get(0));
            String id = "fact-" + (n++) + "-" + turn.id();
            facts.add(Memory.builder(f.text()).id(id).kind(f.kind()).source(turn.source()).author(turn.author())
                    .createdAt(turn.createdAt()).metadata(Conversation.FROM_TURNS_KEY, turn.id()).build());
            turnOf.put(id, turn.id());
        }
        curator.rememberAll(facts);
        return asKeys ? turnOf : Map.of();
    }

    /** With {@code summarize:N}, the memories more than N days old are summarized once stored; else 0. */
    int summarizeDays() {
        return settings.getOrDefault("summarize", 0.0).intValue();
    }
}
