package dev.memfas.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.memfas.Layer;
import dev.memfas.Memory;
import dev.memfas.RememberRequest;
import dev.memfas.Scope;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The router's table, a test per row, and the scope each layer gives a memory. */
final class LayerRouterTest {
    private static final Memory NOTE = Memory.builder("the build takes nine minutes").build();

    private static LayerRouter.Route route(RememberRequest request) {
        return LayerRouter.route(request);
    }

    @Test
    void row1_aForcedLayer_winsOverEveryRule() {
        Memory temp = NOTE.toBuilder().tags("temp").kind("decision").build();

        LayerRouter.Route r = route(RememberRequest.of(temp).session("s1").project("hydra").layer(Layer.GLOBAL));

        assertThat(r.layer()).isEqualTo(Layer.GLOBAL);
        assertThat(r.reason()).isEqualTo("forced");
        assertThat(r.scope()).isEqualTo(Scope.universal());
    }

    @Test
    void row2_tagTemp_goesToWorkingMemory_inASession() {
        LayerRouter.Route r = route(RememberRequest.of(NOTE.toBuilder().tags("temp").build()).session("s1"));

        assertThat(r.layer()).isEqualTo(Layer.WORKING);
        assertThat(r.reason()).isEqualTo("tag temp");
    }

    @Test
    void row2_tagGlobal_goesToGlobal_andDropsAProjectScope() {
        Memory m = NOTE.toBuilder().tags("global").scope(Scope.project("hydra")).kind("decision").build();

        LayerRouter.Route r = route(RememberRequest.of(m).session("s1"));

        assertThat(r.layer()).isEqualTo(Layer.GLOBAL);
        assertThat(r.reason()).isEqualTo("tag global");
        assertThat(r.scope()).isEqualTo(Scope.universal());
    }

    @Test
    void row2_tagProject_goesToTheRequestsProject() {
        Memory m = NOTE.toBuilder().tags("project").kind("convention").build();

        LayerRouter.Route r = route(RememberRequest.of(m).project("Hydra"));

        assertThat(r.layer()).isEqualTo(Layer.PROJECT);
        assertThat(r.reason()).isEqualTo("tag project");
        assertThat(r.scope()).isEqualTo(Scope.project("hydra"));
    }

    @Test
    void row3_aTimeToLive_goesToWorkingMemory() {
        Memory m = NOTE.toBuilder().expiresAt(Instant.parse("2026-11-24T13:00:00Z")).kind("decision").build();

        LayerRouter.Route r = route(RememberRequest.of(m).session("s1"));

        assertThat(r.layer()).isEqualTo(Layer.WORKING);
        assertThat(r.reason()).isEqualTo("time to live");
    }

    @Test
    void row5_kinds_goToTheirLayers() {
        assertThat(route(RememberRequest.of(NOTE.toBuilder().kind("scratchpad").build()).session("s1")).layer())
                .isEqualTo(Layer.WORKING);
        for (String kind : new String[] {"convention", "pattern", "code_pattern", "preference", "relationship"}) {
            LayerRouter.Route r = route(RememberRequest.of(NOTE.toBuilder().kind(kind).build()).project("hydra"));
            assertThat(r.layer()).as(kind).isEqualTo(Layer.GLOBAL);
            assertThat(r.reason()).isEqualTo("kind " + kind);
        }
        for (String kind : new String[] {"decision", "bug_fix", "error"}) {
            LayerRouter.Route r = route(RememberRequest.of(NOTE.toBuilder().kind(kind).build()).project("hydra"));
            assertThat(r.layer()).as(kind).isEqualTo(Layer.PROJECT);
            assertThat(r.scope()).isEqualTo(Scope.project("hydra"));
        }
    }

    @Test
    void row4_theMemorysOwnScope_outweighsItsKind() {
        Memory project = NOTE.toBuilder().scope(Scope.project("atlas")).kind("convention").build();
        Memory java = NOTE.toBuilder().scope(Scope.language("java")).kind("decision").build();

        LayerRouter.Route p = route(RememberRequest.of(project).project("hydra"));
        LayerRouter.Route j = route(RememberRequest.of(java).project("hydra"));

        assertThat(p.layer()).isEqualTo(Layer.PROJECT);
        assertThat(p.reason()).isEqualTo("scope project:atlas");
        assertThat(p.scope()).isEqualTo(Scope.project("atlas"));
        assertThat(j.layer()).isEqualTo(Layer.GLOBAL);
        assertThat(j.reason()).isEqualTo("scope language:java");
        assertThat(j.scope()).isEqualTo(Scope.language("java"));
        Memory task = NOTE.toBuilder().scope(Scope.task("atlas", "debugging")).kind("decision").build();
        assertThat(route(RememberRequest.of(task).project("hydra")).scope()).isEqualTo(Scope.task("atlas", "debugging"));
    }

    @Test
    void row6_anythingElse_goesToTheRequestsProject() {
        LayerRouter.Route r = route(RememberRequest.of(NOTE.toBuilder().kind("lesson").build()).project("hydra"));

        assertThat(r.layer()).isEqualTo(Layer.PROJECT);
        assertThat(r.reason()).isEqualTo("default");
        assertThat(r.scope()).isEqualTo(Scope.project("hydra"));
    }

    @Test
    void withoutASession_theRulesNeverChooseWorkingMemory() {
        Memory m = NOTE.toBuilder().tags("temp").expiresAt(Instant.parse("2026-11-24T13:00:00Z")).kind("scratchpad")
                .build();

        LayerRouter.Route r = route(RememberRequest.of(m).project("hydra"));

        assertThat(r.layer()).isEqualTo(Layer.PROJECT);
        assertThat(r.reason()).isEqualTo("default");
    }

    @Test
    void withoutAProject_aProjectRoute_isGlobal_andSaysWhy() {
        LayerRouter.Route r = route(RememberRequest.of(NOTE.toBuilder().kind("decision").build()));

        assertThat(r.layer()).isEqualTo(Layer.GLOBAL);
        assertThat(r.reason()).isEqualTo("kind decision, but no project given");
        assertThat(r.scope()).isEqualTo(Scope.universal());
    }

    @Test
    void workingMemory_takesTheRequestsProject_soItCanBePromotedThere() {
        LayerRouter.Route r = route(RememberRequest.of(NOTE).session("s1").project("hydra").layer(Layer.WORKING));

        assertThat(r.scope()).isEqualTo(Scope.project("hydra"));
    }

    @Test
    void forcingALayerThatCannotBe_namesWhatIsMissing() {
        assertThatThrownBy(() -> route(RememberRequest.of(NOTE).layer(Layer.PROJECT)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a project");
        assertThatThrownBy(() -> RememberRequest.of(NOTE).layer(Layer.WORKING))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("session id");
        assertThatThrownBy(() -> RememberRequest.of(NOTE).project("bad\nname"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
