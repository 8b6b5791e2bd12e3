package io.kafkamv.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SQL examples of the documentation, run through the real psql binary against one fresh service,
 * in the order the pages give them: every {@code sql} block must run, and where a {@code text} block
 * follows it, print exactly that. {@code -Ddocs.update=true} writes what psql printed into the text
 * blocks instead (then read the diff: the docs say what users will see). A block marked
 * {@code sql norun} is only shown (it needs something this test does not have, like a database host).
 */
class DocExamplesIT {

    /** In this order: the examples build the objects that the reference's examples use. */
    private static final List<Path> PAGES = List.of(Paths.get("../docs/sql-examples.md"), Paths.get("../docs/sql.md"));
    private static final boolean UPDATE = Boolean.getBoolean("docs.update");

    /** A fenced block: its info string and its text. */
    private static final Pattern BLOCK = Pattern.compile("(?m)^```([^\\n]*)\\n(.*?)^```\\s*$", Pattern.DOTALL);
    /** A foreground CREATE's progress notices differ from run to run; the pages leave them out. */
    private static final Pattern PROGRESS = Pattern.compile("(?m)^NOTICE:  job \\d+ \\(.*\\): [0-9.]+% done.*\\n");
    /** psql reading a script names the line of an error; at the prompt, which the pages show, it does not. */
    private static final Pattern SCRIPT_LOCATION = Pattern.compile("(?m)^psql:<stdin>:\\d+: ");

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private record Block(int start, int end, String info, String text) {
        String language() {
            return info.trim().split("\\s+")[0];
        }
    }

    @Test
    void everyExampleRunsAndPrintsWhatThePageShows() throws Exception {
        List<String> mismatches = new ArrayList<>();
        int run = 0;
        int compared = 0;
        for (Path page : PAGES) {
            String markdown = Files.readString(page, StandardCharsets.UTF_8);
            List<Block> blocks = blocks(markdown);
            StringBuilder updated = new StringBuilder();
            int copied = 0;
            for (int i = 0; i < blocks.size(); i++) {
                Block block = blocks.get(i);
                if (!block.language().equals("sql") || block.info().contains("norun")) {
                    continue;
                }
                String output = psql(block.text());
                run++;
                Block expected = i + 1 < blocks.size() && blocks.get(i + 1).language().equals("text")
                    && markdown.substring(block.end(), blocks.get(i + 1).start()).isBlank() ? blocks.get(i + 1) : null;
                if (expected == null) {
                    if (output.contains("ERROR:")) {
                        mismatches.add(page.getFileName() + ": an example without expected output failed:\n"
                            + block.text() + "\n" + output);
                    }
                    continue;
                }
                compared++;
                if (UPDATE) {
                    int bodyStart = markdown.indexOf('\n', expected.start()) + 1;
                    updated.append(markdown, copied, bodyStart).append(output);
                    copied = bodyStart + expected.text().length();
                } else if (!output.equals(expected.text())) {
                    mismatches.add(page.getFileName() + ":\n" + block.text() + "\n--- the page shows:\n" + expected.text()
                        + "--- psql printed:\n" + output);
                }
            }
            if (UPDATE) {
                updated.append(markdown.substring(copied));
                Files.writeString(page, updated.toString(), StandardCharsets.UTF_8);
            }
        }

        assertThat(run).as("examples run").isGreaterThan(20);
        assertThat(compared).as("examples with their output").isGreaterThan(20);
        assertThat(mismatches).as("examples whose output differs from the page").isEmpty();
    }

    private static List<Block> blocks(String markdown) {
        List<Block> blocks = new ArrayList<>();
        Matcher matcher = BLOCK.matcher(markdown);
        while (matcher.find()) {
            blocks.add(new Block(matcher.start(), matcher.end(), matcher.group(1), matcher.group(2)));
        }
        return blocks;
    }

    /** What psql prints for the script, its errors in place, as a user reading the terminal sees it. */
    private static String psql(String script) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("psql", "-X", "-h", "localhost", "-p",
            String.valueOf(SERVICE.service().pgPort()), "-U", "root", "-d", "dev")
            .redirectErrorStream(true).start();
        process.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("psql finished").isTrue();
        String shown = SCRIPT_LOCATION.matcher(PROGRESS.matcher(output).replaceAll("")).replaceAll("");
        return shown.lines().map(String::stripTrailing).collect(Collectors.joining("\n", "", "\n"));
    }
}
