package dev.memfas.cli;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The day a memory file is about when its front matter says none: from its name, else from its folders. */
final class FileDates {
    /** A date in a file name: {@code 2026-11-17.md}, {@code 2026-11-17-standup.md}, {@code notes-2026-11-17.md}. */
    private static final Pattern DATED_NAME = Pattern.compile("(?<![0-9])(\\d{4}-\\d{2}-\\d{2})(?![0-9])");
    /** A date in the folders a file is in: {@code journal/2026/11/17/standup.md}. */
    private static final Pattern DATED_FOLDERS = Pattern.compile("(?:^|/)(\\d{4})/(\\d{2})/(\\d{2})/[^/]+$");

    private FileDates() {}

    /**
     * The date a file's name or folders give it, at the start of that day in UTC, or null.
     *
     * @throws BadFileException if what looks like a date is not one (2026-02-30)
     */
    static Instant of(String fileKey, String fileName) throws MemoryFiles.BadFileException {
        String day = null;
        Matcher named = DATED_NAME.matcher(fileName);
        if (named.find()) {
            day = named.group(1);
        } else {
            Matcher folders = DATED_FOLDERS.matcher(fileKey.replace('\\', '/'));
            if (folders.find()) {
                day = folders.group(1) + "-" + folders.group(2) + "-" + folders.group(3);
            }
        }
        if (day == null) {
            return null;
        }
        try {
            return LocalDate.parse(day).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            throw new MemoryFiles.BadFileException("the file's name or folders look like a date but are not one: "
                    + day);
        }
    }
}
