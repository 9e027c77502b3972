package dev.memfas.djl;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import dev.memfas.core.Memfas;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A curator with the default model that has remembered a team's notes, as an agent remembers them: five on
 * authentication ("auth-…") and thirty on anything else. One per test class, built before its tests and closed after.
 */
abstract class TeamNotesFixture {
    private static final Instant AT = Instant.parse("2026-03-04T09:00:00Z");
    /** The thirty notes on anything else, remembered as "other-0" to "other-29". */
    static final List<String> OTHERS = List.of(
            "The coffee machine on the third floor is descaled every Friday; use the one by the kitchen meanwhile.",
            "Guest wifi password is on the whiteboard in reception and changes every month.",
            "We deploy the billing service on Tuesdays after the Flyway migrations ran.",
            "Standup is at 9:30 in the small meeting room, fifteen minutes at most.",
            "The office is closed between Christmas and New Year.",
            "CI runners were moved to the new cluster; builds take about eight minutes now.",
            "Every pull request needs one approval and a green build before merging.",
            "Grafana dashboards for the checkout flow live in the Payments folder.",
            "Kafka retention on the orders topic is seven days.",
            "Database backups run nightly at 02:00 and are kept for 35 days.",
            "Book vacation in the HR portal at least two weeks ahead.",
            "New hires get a laptop on their first day and a buddy for the first month.",
            "Parking permits are renewed every January at the front desk.",
            "The design system's buttons moved to version 3; the old ones are deprecated.",
            "Feature flags are managed in LaunchDarkly; remove a flag within a month of full rollout.",
            "Product analytics events are named object_action, such as cart_viewed.",
            "The mobile app ships every second Thursday through the app stores.",
            "Lunch on Wednesdays is catered; say in the channel if you have allergies.",
            "The search service indexes the catalogue every hour from the products database.",
            "Invoices are archived as PDFs in the billing-archive bucket for seven years.",
            "The quarterly planning meeting is in the last week of each quarter.",
            "Printer on the second floor jams with thick paper; use the one in the library.",
            "Our style guide says British spelling in user-facing text.",
            "The data warehouse refreshes every night; dashboards show yesterday's numbers.",
            "Bike storage is in the basement; the door code is with facilities.",
            "Load tests run against staging every Sunday night.",
            "The team offsite is in Lisbon in May this year.",
            "Support tickets tagged urgent must get an answer within four hours.",
            "The recommendations model is retrained weekly on the last 90 days of orders.",
            "Plants in the office are watered on Mondays by whoever arrives first.");

    static DjlEmbedder embedder;
    static ContextCurator curator;

    @BeforeAll
    static void remember() {
        embedder = DjlEmbedder.defaultModel();
        curator = Memfas.newBuilder().embedder(embedder).build();
        curator.rememberAll(notes());
    }

    @AfterAll
    static void close() {
        curator.close();
        embedder.close();
    }

    private static List<Memory> notes() {
        List<Memory> notes = new ArrayList<>(List.of(
                note("auth-owner", "Priya Raman owns the authentication service; page her when logins fail."),
                note("auth-sso", "Single sign-on goes through Okta, and the authentication service checks the SAML"
                        + " assertions."),
                note("auth-tokens", "Access tokens from the auth service expire after 15 minutes, refresh tokens after"
                        + " 30 days."),
                note("auth-review", "Any change to password hashing needs a review from the authentication team."),
                note("auth-oncall", "The identity team (Priya and Marco) is on call for authentication this"
                        + " quarter.")));
        for (int i = 0; i < OTHERS.size(); i++) {
            notes.add(note("other-" + i, OTHERS.get(i)));
        }
        return notes;
    }

    /** The id a note on anything else is remembered under. */
    static String idOf(String other) {
        int i = OTHERS.indexOf(other);
        if (i < 0) {
            throw new IllegalArgumentException("not one of the team's other notes: '" + other + "'");
        }
        return "other-" + i;
    }

    /** A note as an agent remembers it: no stated source, so no note is another's stored context (its neighbor). */
    private static Memory note(String id, String text) {
        return Memory.builder(text).id(id).createdAt(AT).build();
    }
}
