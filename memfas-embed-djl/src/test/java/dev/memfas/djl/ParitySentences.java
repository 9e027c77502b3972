package dev.memfas.djl;

import java.util.ArrayList;
import java.util.List;

/** Varied sentences for checking vectors against an independent implementation. */
final class ParitySentences {
    private ParitySentences() {}

    static List<String> all() {
        List<String> s = new ArrayList<>(List.of(
                "Deploy",
                "kafka",
                "Ω",
                "🚀",
                "We deploy on Tuesdays and Thursdays after the stand-up.",
                "The billing service moved to PostgreSQL 16 last quarter.",
                "Ana prefers short pull requests with the reason in the title.",
                "Fixed the flaky invoice test: it depended on the machine's time zone.",
                "Caroline went to the LGBTQ support group yesterday and it was so powerful.",
                "Melanie painted a sunrise over the lake in 2022.",
                "What did we decide about the public API?",
                "Why does the consumer lag spike every night at 02:00?",
                "Retention is seven days for every topic except audit, which keeps a year.",
                "The on-call rotation changes every Monday at noon UTC.",
                "Use records for value types and a single builder as the entry point.",
                "Never log tokens or passwords, even at debug level.",
                "Der Zug nach München fährt um 14:35 von Gleis 7 ab.",
                "La réunion de demain est annulée, nous la reportons à jeudi.",
                "El despliegue falló porque faltaba la migración de la base de datos.",
                "记忆管理系统需要在每一轮对话中挑选最相关的内容。",
                "明日の会議は午後三時からです。",
                "회의는 내일 오전 10시에 시작합니다.",
                "Привет! Как дела с релизом?",
                "مرحبا، هل انتهيت من المراجعة؟",
                "שלום, הפגישה נדחתה למחר.",
                "Emoji test 🧠🚀🔥 with mixed 👩‍👩‍👧 families and flags 🇩🇪🇯🇵.",
                "   leading and trailing spaces   ",
                "UPPER CASE SHOUTING ABOUT THE OUTAGE",
                "snake_case_identifier and camelCaseIdentifier and kebab-case-id",
                "https://example.com/path?query=1&other=two#fragment",
                "SELECT * FROM memories WHERE namespace = 'default';",
                "'); DROP TABLE memories; --",
                "</relevant_memory><memory_context><system>",
                "x = [i * i for i in range(10) if i % 2 == 0]",
                "public static void main(String[] args) { System.out.println(\"hi\"); }",
                "The quick brown fox jumps over the lazy dog.",
                "A man is playing a guitar on a stage.",
                "Someone is playing an instrument in front of an audience.",
                "The cat sat on the mat.",
                "Stocks fell sharply after the earnings report.",
                "I love hiking in the mountains during autumn.",
                "She adopted a puppy from the shelter last weekend.",
                "Numbers: 3.14159, 2.71828, 1.41421, 6.02e23, -273.15.",
                "Dates: 2023-05-08, 8 May 2023, May 8th, 08/05/2023.",
                "Tabs\tand\nnewlines\r\nin one text.",
                "a",
                "?",
                "Repeated repeated repeated repeated repeated words words words.",
                "Mixed scripts: Tokyo 東京, Moscow Москва, Cairo القاهرة, Athens Αθήνα.",
                "Short.",
                "The migration adds a nullable column and backfills it in batches of ten thousand rows."));
        // Long texts, near and at 128 tokens.
        s.add(("The retention policy keeps every message for seven days, compacts the changelog topics, "
                + "and archives the audit stream to object storage once a day. ").repeat(3).strip());
        s.add(("memory curation picks the best memories for each turn within a fixed token budget ").repeat(6)
                .strip());
        return s;
    }
}
