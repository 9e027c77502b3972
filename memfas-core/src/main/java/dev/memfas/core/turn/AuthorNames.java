package dev.memfas.core.turn;

import dev.memfas.Memory;
import dev.memfas.spi.MemoryStore;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The authors of each namespace's memories that a query may name as a person ("What did Caroline say about the
 * move?"), and the query as a turn embeds it: each such name read as "someone". A sentence embedding reads a name as
 * content: the query above lies closest to every turn that says "Caroline", most of them the other speaker addressing
 * her ("Wow, Caroline, that looks amazing!"), not to what she said. Read without the name, the same question ranks
 * its evidence higher on LoCoMo's dev split (bge-small-en-v1.5-q, by meaning alone, among the first 10 / 20 / 40
 * turns: .615 / .719 / .818 with the name, .684 / .773 / .862 read as "someone"). Left out rather than replaced,
 * the name leaves a sentence that reads less well ("What is identity?"): in memfas, .738 against .757 at 512 tokens
 * (both with the gate as it was).
 *
 * <p>An author counts as a name when it is one word of letters that starts with a capital and has a small letter
 * ("Caroline", "O'Brien" does not count, nor "AI"), and is not a role ("User", "Assistant", "System", "Agent",
 * "Tool", "Human", "Bot", "Model"): a query that says "the user" asks about users, not about someone. A name is read
 * only as the author writes it, as a whole word, with or without a possessive "'s".
 *
 * <p>Read from the store once per namespace ({@link MemoryStore#authors}), then kept in step with writes and deletes,
 * this curator's and, on a shared store, other processes': a name stays one while a memory by that author does. A
 * memory written again under another author leaves the old name known until a delete in its namespace or a restart.
 * Thread-safe.
 */
public final class AuthorNames {
    private static final Set<String> ROLES = Set.of("user", "assistant", "system", "agent", "tool", "human", "bot",
            "model");
    /** Longer than any name, so a long identifier is never scanned for. */
    private static final int MAX_NAME_LENGTH = 40;
    private static final String SOMEONE = "someone";
    /** Words that refer to a person named before, as a follow-up does ("When did she go?"). */
    private static final Set<String> PRONOUNS = Set.of("he", "she", "they", "him", "her", "them", "his", "hers",
            "their", "theirs", "himself", "herself", "themselves");

    private final MemoryStore store;
    private final ConcurrentHashMap<String, Set<String>> byNamespace = new ConcurrentHashMap<>();

    public AuthorNames(MemoryStore store) {
        this.store = store;
    }

    /**
     * A query as a turn reads it: the text it embeds, and the authors of the namespace it is about.
     *
     * @param text the query with each author's name read as "someone"
     * @param named the authors the query names, or the one its history names for a pronoun; empty if none
     * @param carried whether {@code named} comes from the history, not from the query
     */
    public record Reading(String text, Set<String> named, boolean carried) {
        static Reading asIs(String query) {
            return new Reading(query, Set.of(), false);
        }

        /**
         * The query as it is searched by in words when the person it is about was named before it: followed by the
         * name, which the query's pronoun stands for ("When did she go?" and "Caroline"), as the query that named her
         * would have been searched.
         */
        String withNamed(String query) {
            return query + "\n" + String.join(" ", named);
        }
    }

    /** The namespace's author names; a live view, possibly empty. */
    public Set<String> names(String namespace) {
        return byNamespace.computeIfAbsent(namespace, ns -> {
            Set<String> names = ConcurrentHashMap.newKeySet();
            for (String author : store.authors(ns)) {
                if (isName(author)) {
                    names.add(author);
                }
            }
            return names;
        });
    }

    /** The query with each of the namespace's author names in it read as "someone" ("someone's" for "Name's"). */
    Reading read(String namespace, String query) {
        Set<String> names = names(namespace);
        if (names.isEmpty()) {
            return Reading.asIs(query);
        }
        StringBuilder out = null;
        Set<String> named = null;
        int copied = 0;
        int i = 0;
        int n = query.length();
        while (i < n) {
            int c = query.codePointAt(i);
            if (!Character.isLetterOrDigit(c)) {
                i += Character.charCount(c);
                continue;
            }
            int start = i;
            while (i < n && Character.isLetterOrDigit(query.codePointAt(i))) {
                i += Character.charCount(query.codePointAt(i));
            }
            String word = i - start > MAX_NAME_LENGTH || !Character.isUpperCase(c) ? null : query.substring(start, i);
            if (word == null || !names.contains(word)) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(n + 16);
                named = new HashSet<>(2);
            }
            named.add(word);
            out.append(query, copied, start).append(SOMEONE);
            copied = i;
            if (i + 1 < n && (query.charAt(i) == '\'' || query.charAt(i) == '\u2019') && query.charAt(i + 1) == 's'
                    && (i + 2 == n || !Character.isLetterOrDigit(query.codePointAt(i + 2)))) {
                out.append("'s");
                i += 2;
                copied = i;
            }
        }
        if (out == null) {
            return Reading.asIs(query);
        }
        return new Reading(out.append(query, copied, n).toString(), Set.copyOf(named), false);
    }

    /**
     * A query that names no author but refers to someone by a pronoun ("When did she go to the support group?") as a
     * follow-up reads it: naming the author its recent history names last, the latest message first, as a reader
     * resolves "she" to the person just spoken of. A follow-up that names almost nothing ({@link FollowUps}: "Tell me
     * more about that." after "What did Caroline and Melanie paint?") is about whom its history is about: it reads as
     * naming the authors of the latest message of its history that names any. The text it embeds stays as it is (a
     * pronoun reads as "someone" does). A query that names an author, or neither has such a pronoun nor is a
     * follow-up, or whose history names none, is read as it is.
     *
     * @param history the recent history, oldest first
     * @param followUp whether the query is a follow-up read with that history
     */
    Reading readFollowingHistory(String namespace, String query, List<String> history, boolean followUp) {
        Reading reading = read(namespace, query);
        if (!reading.named().isEmpty() || history.isEmpty()) {
            return reading;
        }
        if (refersToSomeone(query)) {
            for (int i = history.size() - 1; i >= 0; i--) {
                String last = lastNamed(namespace, history.get(i));
                if (last != null) {
                    return new Reading(reading.text(), Set.of(last), true);
                }
            }
        } else if (followUp) {
            for (int i = history.size() - 1; i >= 0; i--) {
                Set<String> named = read(namespace, history.get(i)).named();
                if (!named.isEmpty()) {
                    return new Reading(reading.text(), named, true);
                }
            }
        }
        return reading;
    }

    /** Whether the query has a third-person pronoun (he, she, they and their other forms). */
    static boolean refersToSomeone(String query) {
        return FollowUps.hasAnyWord(query, PRONOUNS);
    }

    /** The author of the namespace a text names last, or null. */
    private String lastNamed(String namespace, String text) {
        Set<String> names = names(namespace);
        String last = null;
        int at = -1;
        for (String name : names) {
            int i = text.lastIndexOf(name);
            while (i >= 0) {
                int end = i + name.length();
                boolean whole = (i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)))
                        && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)));
                if (whole) {
                    break;
                }
                i = i == 0 ? -1 : text.lastIndexOf(name, i - 1);
            }
            if (i > at) {
                at = i;
                last = name;
            }
        }
        return last;
    }

    /** Memories were stored: the names among their authors join their namespaces'. */
    public void written(List<Memory> memories) {
        for (Memory m : memories) {
            Set<String> names = byNamespace.get(m.namespace());
            if (names == null) {
                continue; // not loaded yet: the first read will see the store as it is
            }
            if (m.author() != null && isName(m.author())) {
                names.add(m.author());
            }
        }
    }

    /**
     * Memories of a namespace were deleted. A name stays only while a memory by that author does, so a namespace with
     * names reads them from the store again on its next turn; one without names has none to lose and keeps its empty
     * set (most namespaces: memories stored through the API rarely have a person's name as their author).
     */
    public void removed(String namespace) {
        Set<String> names = byNamespace.get(namespace);
        if (names != null && !names.isEmpty()) {
            byNamespace.remove(namespace, names);
        }
    }

    /** Forgets what it knows of a namespace: the next read loads it from the store again. */
    public void reload(String namespace) {
        byNamespace.remove(namespace);
    }

    /** Forgets every namespace. */
    public void reloadAll() {
        byNamespace.clear();
    }

    /** Whether an author reads as a person's name (see the class comment). */
    static boolean isName(String author) {
        int n = author.length();
        if (n < 2 || n > MAX_NAME_LENGTH || !Character.isUpperCase(author.codePointAt(0))) {
            return false;
        }
        boolean small = false;
        for (int i = 0; i < n; ) {
            int c = author.codePointAt(i);
            if (!Character.isLetter(c)) {
                return false;
            }
            small |= Character.isLowerCase(c);
            i += Character.charCount(c);
        }
        return small && !ROLES.contains(author.toLowerCase(Locale.ROOT));
    }
}
