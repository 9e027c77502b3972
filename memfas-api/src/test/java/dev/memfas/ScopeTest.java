package dev.memfas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Scopes' text forms, the task scope, and the errors bad scopes get. */
final class ScopeTest {

    @Test
    void textForms_roundTrip_lowerCased() {
        for (Scope s : new Scope[] {Scope.universal(), Scope.language("Go"), Scope.project("Hydra"),
                Scope.task("Hydra", "Debugging")}) {
            assertThat(Scope.parse(s.toString())).isEqualTo(s);
        }
        assertThat(Scope.task("Hydra", "Debugging").toString()).isEqualTo("project:hydra:task:debugging");
        assertThat(Scope.parse("PROJECT:Hydra:Task:Coding")).isEqualTo(Scope.task("hydra", "coding"));
        assertThat(Scope.parse("lang:java")).isEqualTo(Scope.language("java"));
    }

    @Test
    void taskScope_isAProjectScope_withoutItsTaskTheProjects() {
        Scope s = Scope.task("hydra", "coding");

        assertThat(s.type()).isEqualTo(Scope.Type.PROJECT);
        assertThat(s.name()).isEqualTo("hydra");
        assertThat(s.hasTask()).isTrue();
        assertThat(s.withoutTask()).isEqualTo(Scope.project("hydra"));
        assertThat(Scope.project("hydra").hasTask()).isFalse();
        assertThat(Scope.project("hydra").withoutTask()).isEqualTo(Scope.project("hydra"));
    }

    @Test
    void aProjectNameWithColons_isKept_theLastTaskSeparatorSplits() {
        assertThat(Scope.parse("project:acme:web")).isEqualTo(Scope.project("acme:web"));
        assertThat(Scope.parse("project:acme:web:task:docs")).isEqualTo(Scope.task("acme:web", "docs"));
    }

    @Test
    void badScopes_areRefused_namingTheValue() {
        assertThatThrownBy(() -> Scope.parse("team:core")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'team:core'").hasMessageContaining("project:NAME:task:TASK");
        assertThatThrownBy(() -> Scope.parse("project:hydra:task:")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("task must not be blank");
        assertThatThrownBy(() -> new Scope(Scope.Type.LANGUAGE, "go", "coding"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("only a project scope takes a task: language scope with task 'coding'");
        assertThatThrownBy(() -> new Scope(Scope.Type.UNIVERSAL, "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'x'");
    }
}
