package dev.memfas.core.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.memfas.Scope;
import org.junit.jupiter.api.Test;

/** The scope rule's table: what a turn admits and the scope factor of what it admits. */
final class ScopeRuleTest {
    private static final Scope UNIVERSAL = Scope.universal();
    private static final Scope GO = Scope.language("go");
    private static final Scope PYTHON = Scope.language("python");
    private static final Scope HYDRA = Scope.project("hydra");
    private static final Scope CERBERUS = Scope.project("cerberus");
    private static final Scope HYDRA_DEBUGGING = Scope.task("hydra", "debugging");

    @Test
    void aTurnNamingNothing_admitsEveryScope_atTheSameFactor() {
        ScopeRule rule = ScopeRule.of(null, null, null);

        assertThat(rule).isSameAs(ScopeRule.ANY);
        for (Scope s : new Scope[] {UNIVERSAL, GO, HYDRA, HYDRA_DEBUGGING}) {
            assertThat(rule.admits(s)).isTrue();
            assertThat(rule.match(s)).isEqualTo(0.4);
        }
    }

    @Test
    void aTurnNamingItsProjectAndLanguage_leavesOutOthers_andRanksBySpecificity() {
        ScopeRule rule = ScopeRule.of("hydra", "go", null);

        assertThat(rule.admits(CERBERUS)).isFalse();
        assertThat(rule.admits(PYTHON)).isFalse();
        assertThat(rule.match(CERBERUS)).isZero();
        assertThat(rule.match(HYDRA)).isEqualTo(0.9);
        assertThat(rule.match(GO)).isEqualTo(0.7);
        assertThat(rule.match(UNIVERSAL)).isEqualTo(0.4);
        assertThat(rule.match(HYDRA_DEBUGGING)).isEqualTo(0.8);
    }

    @Test
    void aTurnNamingOnlyItsLanguage_keepsEveryProject_unranked() {
        ScopeRule rule = ScopeRule.of(null, "python", null);

        assertThat(rule.admits(GO)).isFalse();
        assertThat(rule.match(PYTHON)).isEqualTo(0.7);
        assertThat(rule.match(HYDRA)).isEqualTo(0.4);
        assertThat(rule.match(CERBERUS)).isEqualTo(0.4);
    }

    @Test
    void aTask_matchesByWholeWordsOrByTheKindItNames_andNeverExcludes() {
        ScopeRule fixing = ScopeRule.of("hydra", null, "Fix the failing login test");
        ScopeRule docs = ScopeRule.of("hydra", null, "write the README for the login page");
        ScopeRule release = ScopeRule.of("hydra", null, "cut the release");

        assertThat(fixing.match(HYDRA_DEBUGGING)).isEqualTo(1.0);
        assertThat(docs.match(HYDRA_DEBUGGING)).isEqualTo(0.6);
        assertThat(docs.match(Scope.task("hydra", "documentation"))).isEqualTo(1.0);
        assertThat(release.match(Scope.task("hydra", "release"))).isEqualTo(1.0);
        assertThat(release.admits(HYDRA_DEBUGGING)).isTrue();
        assertThat(fixing.match(Scope.task("cerberus", "debugging"))).isZero();
    }

    @Test
    void taskWords_areWholeWords() {
        // "latest" holds "test", "prefix" holds "fix": neither names debugging.
        assertThat(ScopeRule.of("hydra", null, "read the latest prefix table").match(HYDRA_DEBUGGING))
                .isEqualTo(0.6);
        assertThat(TaskKind.of(java.util.Set.of("latest", "prefix"))).isNull();
        assertThat(TaskKind.of(java.util.Set.of("refactor", "module", "fix"))).isEqualTo(TaskKind.ARCHITECTURE);
    }
}
