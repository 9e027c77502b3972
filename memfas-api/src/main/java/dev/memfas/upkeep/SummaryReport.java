package dev.memfas.upkeep;

import dev.memfas.ContextCurator;
import dev.memfas.Memory;
import java.util.List;
import java.util.Objects;

/**
 * What {@link Upkeep#summarize} did, or would do in a dry run.
 *
 * @param examined how many memories were old enough and allowed by the filter
 * @param summarized how many of them were consolidated (archived, superseded by their group's summary)
 * @param summaries the summary memories, one per group, with {@link Memory#supersedes()} naming the group
 * @param dryRun whether nothing was changed
 */
public record SummaryReport(int examined, int summarized, List<Memory> summaries, boolean dryRun) {
    /** Copies the list and checks the components. */
    public SummaryReport {
        summaries = List.copyOf(Objects.requireNonNull(summaries, "summaries"));
        if (examined < 0 || summarized < 0 || summarized > examined) {
            throw new IllegalArgumentException("counts out of range: examined " + examined + ", summarized "
                    + summarized);
        }
    }
}
