package io.kafkamv.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceExtension;
import io.kafkamv.it.support.ServiceProcess;
import io.kafkamv.it.support.ShownJob;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver},
 * which {@code .ci/run} installs): a backfill's bar moves to 100%, a job is cancelled through the
 * confirmation dialog, a view's page shows its rows and topology, and the SQL box runs a query and
 * marks an error's position. A screenshot of each page lands in {@code target/console-screenshots}.
 */
class WebConsoleIT {

    private static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Paths.get("target/console-screenshots");
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private static WebDriver browser;

    @BeforeAll
    static void openBrowser() throws IOException, InterruptedException {
        assertThat(CHROMEDRIVER).as("chromium-driver is installed (apt-get install chromium chromium-driver; .ci/run does)")
            .isExecutable();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--window-size=1400,1000");
        ChromeDriverService driver = new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(driver, options);
        Files.createDirectories(SCREENSHOTS);

        Psql psql = SERVICE.psql();
        assertThat(psql.session(List.of("CREATE TABLE t (v1 INT)",
            "INSERT INTO t SELECT * FROM generate_series(1, 200000)", "FLUSH")).exitCode()).isZero();
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void theJobsPageShowsABackfillMovingToTheEnd() throws Exception {
        Psql psql = SERVICE.psql();
        assertThat(psql.session(List.of("SET BACKGROUND_DDL = true", "SET BACKFILL_RATE_LIMIT = 15000",
            "CREATE MATERIALIZED VIEW watched AS SELECT v1 % 10 AS g, count(*) AS n FROM t GROUP BY v1 % 10")).exitCode())
            .isZero();
        long id = ShownJob.list(psql).stream().filter(job -> job.statement().contains("watched")).findFirst()
            .orElseThrow().id();
        open("#/jobs");

        List<Double> seen = new ArrayList<>();
        List<String> rates = new ArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean shot = new java.util.concurrent.atomic.AtomicBoolean();
        // The page redraws its table every second, so each look reads the row in one script, not element by element.
        new WebDriverWait(browser, DEADLINE).pollingEvery(Duration.ofMillis(100)).until(page -> {
            @SuppressWarnings("unchecked")
            List<Object> row = (List<Object>) ((JavascriptExecutor) page).executeScript(
                "const row = document.querySelector(\"tr[data-job-id='\" + arguments[0] + \"']\");"
                    + "return row ? [row.querySelector('[role=progressbar]').getAttribute('aria-valuenow'),"
                    + " row.querySelector('.rate').textContent, row.dataset.status] : null;", id);
            if (row == null) {
                return false;
            }
            double percent = Double.parseDouble((String) row.get(0));
            if (seen.isEmpty() || seen.get(seen.size() - 1) != percent) {
                seen.add(percent);
                rates.add((String) row.get(1));
                if (percent > 20 && percent < 90 && !shot.getAndSet(true)) {
                    shoot("jobs-backfilling");
                }
            }
            return "CREATED".equals(row.get(2));
        });
        screenshot("jobs-done");

        assertThat(seen).as("the bar moved through several values to 100%").hasSizeGreaterThan(3).isSorted()
            .endsWith(100.0);
        assertThat(rates).as("a rate was shown while it ran").anyMatch(rate -> rate.matches("[1-9][0-9,]* rows/s"));
    }

    @Test
    void aJobIsCancelledOnlyOnceTheDialogConfirmsIt() throws Exception {
        Psql psql = SERVICE.psql();
        assertThat(psql.session(List.of("SET BACKGROUND_DDL = true", "SET BACKFILL_RATE_LIMIT = 0",
            "CREATE MATERIALIZED VIEW doomed AS SELECT v1 FROM t WHERE v1 > 5")).exitCode()).isZero();
        long id = ShownJob.list(psql).stream().filter(job -> job.statement().contains("doomed")).findFirst()
            .orElseThrow().id();
        open("#/jobs");
        By cancel = By.cssSelector("button.cancel[data-job-id='" + id + "']");
        By pause = By.cssSelector("button.pause[data-job-id='" + id + "']");

        // Pause and Resume toggle the job's pause, which SHOW JOBS and the status column show.
        assertThat(await(pause).getText()).isEqualTo("Pause");
        click(pause);
        awaitText(pause, "Resume");
        awaitText(By.cssSelector("tr[data-job-id='" + id + "'] td.status-paused"), "paused");
        assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout()).contains(id + "|").contains("(paused)");
        click(pause);
        awaitText(pause, "Pause");
        assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout()).doesNotContain("(paused)");

        click(cancel);
        await(By.id("confirm-keep")).click();
        awaitRedraws(2);
        click(cancel);
        await(By.id("confirm-cancel-text"));
        browser.switchTo().activeElement().sendKeys(org.openqa.selenium.Keys.ESCAPE);
        awaitRedraws(2);
        assertThat(ShownJob.list(psql)).extracting(ShownJob::id).as("kept running after Keep and after Esc").contains(id);

        click(cancel);
        assertThat(await(By.id("confirm-cancel-text")).getText()).contains("Cancel job " + id + " (doomed)?");
        screenshot("jobs-cancel-dialog");
        await(By.id("confirm-yes")).click();

        new WebDriverWait(browser, DEADLINE).until(page ->
            page.findElements(By.cssSelector("tr[data-job-id='" + id + "']")).isEmpty());
        assertThat(ShownJob.list(psql)).extracting(ShownJob::id).doesNotContain(id);
        assertThat(psql.run("SELECT count(*) FROM doomed").stderr()).contains("does not exist");
    }

    @Test
    void theJobsPageShowsQueuedAndWaitingJobsAndAJobsThreads() throws Exception {
        Psql psql = SERVICE.psql();
        try {
            assertThat(psql.session(List.of("ALTER SYSTEM SET max_concurrent_creating_jobs = 1",
                "SET BACKGROUND_DDL = true", "SET BACKFILL_RATE_LIMIT = 0",
                "CREATE MATERIALIZED VIEW running_one AS SELECT v1 FROM t WHERE v1 > 7",
                "CREATE MATERIALIZED VIEW queued_one WITH (parallelism = 3) AS SELECT v1 FROM t WHERE v1 > 8",
                "CREATE MATERIALIZED VIEW stacked AS SELECT count(*) AS n FROM running_one")).exitCode()).isZero();
            List<ShownJob> jobs = ShownJob.list(psql);
            long queued = jobOf(jobs, "queued_one");
            long waiting = jobOf(jobs, "stacked");
            open("#/jobs");

            awaitText(By.cssSelector("tr[data-job-id='" + queued + "'] td.status-queued"),
                "queued\n3 threads per instance");
            awaitText(By.cssSelector("tr[data-job-id='" + waiting + "'] td.status-waiting"), "waiting\nfor running_one");
            screenshot("jobs-queued-and-waiting");
            assertThat(psql.run("SHOW JOBS", "-A", "-t").stdout()).contains("(queued)").contains("(waiting for running_one)");
        } finally {
            psql.run("CANCEL JOBS " + String.join(", ", ShownJob.list(psql).stream()
                .filter(job -> job.statement().matches("(?s).*(running_one|queued_one).*"))
                .map(job -> String.valueOf(job.id())).toList()));
            psql.run("ALTER SYSTEM RESET max_concurrent_creating_jobs");
        }
    }

    private static long jobOf(List<ShownJob> jobs, String view) {
        return jobs.stream().filter(job -> job.statement().contains("VIEW " + view + " ")).findFirst().orElseThrow().id();
    }

    @Test
    void aViewsPageShowsItsRowsSchemaSqlAndTopology() throws Exception {
        Psql psql = SERVICE.psql();
        assertThat(psql.session(List.of("CREATE TABLE names (g INT PRIMARY KEY, name TEXT)",
            "INSERT INTO names VALUES (0, 'zero'), (1, 'one'), (2, 'two')", "FLUSH",
            "CREATE MATERIALIZED VIEW named AS SELECT names.name, count(*) AS n FROM t JOIN names ON t.v1 % 10 = names.g "
                + "GROUP BY names.name")).exitCode()).isZero();
        open("#/objects");

        await(By.cssSelector("table[data-kind='materialized view'] tr[data-name='named'] a")).click();
        WebElement rows = await(By.cssSelector("#facts dd[data-fact='Rows']"));

        assertThat(rows.getText()).isEqualTo(psql.value("SELECT count(*) FROM named"));
        assertThat(browser.findElement(By.cssSelector("#facts dd[data-fact='Lag (records)']")).getText()).isEqualTo("0");
        assertThat(browser.findElement(By.id("object-sql")).getText()).startsWith("CREATE MATERIALIZED VIEW named AS");
        assertThat(browser.findElements(By.cssSelector("#columns tbody tr"))).extracting(WebElement::getText)
            .containsExactly("name character varying yes", "n bigint no");
        List<String> nodes = browser.findElements(By.cssSelector("#topology-graph g.node")).stream()
            .map(node -> node.getDomAttribute("data-node-id")).toList();
        assertThat(nodes).contains("scan-t", "scan-names").anyMatch(node -> node.startsWith("topic:kmv-view-named"))
            .anyMatch(node -> node.startsWith("store:aggregate-")).anyMatch(node -> node.startsWith("join-"));
        assertThat(browser.findElements(By.cssSelector("#topology-graph path.edge"))).hasSizeGreaterThan(nodes.size() - 3);
        screenshot("view-named");
    }

    @Test
    void theSqlBoxRunsAQueryAndPointsAtAnErrorsPosition() throws Exception {
        Psql psql = SERVICE.psql();
        assertThat(psql.session(List.of("CREATE TABLE small (k INT PRIMARY KEY, label TEXT)",
            "INSERT INTO small VALUES (1, 'a'), (2, 'b'), (3, NULL)", "FLUSH")).exitCode()).isZero();
        open("#/sql");

        type("SELECT k, label FROM small ORDER BY k");
        await(By.id("run")).click();
        new WebDriverWait(browser, DEADLINE).until(page -> page.findElements(By.cssSelector("#results table.rows tbody tr")).size() == 3);
        assertThat(browser.findElements(By.cssSelector("#results table.rows tbody tr"))).extracting(WebElement::getText)
            .containsExactly("1 a", "2 b", "3 NULL");
        assertThat(browser.findElement(By.cssSelector("#results .tag")).getText()).isEqualTo("SELECT 3");

        type("SELECT 1;\nSELECT lable FROM small");
        await(By.id("run")).click();
        WebElement error = await(By.id("sql-error"));
        screenshot("sql-error");

        assertThat(error.getText()).contains("42703").contains("column \"lable\" does not exist");
        assertThat(browser.findElement(By.id("error-position")).getText()).isEqualTo("l");
        assertThat(browser.findElement(By.cssSelector("#sql-error pre")).getText()).isEqualTo("SELECT 1;\nSELECT lable FROM small");
        String before = (String) ((JavascriptExecutor) browser).executeScript(
            "return document.getElementById('error-position').previousSibling.textContent");
        assertThat(before).isEqualTo("SELECT 1;\nSELECT ");
    }

    @Test
    void withRestTokensTheConsoleAsksForOneAndWorksOnceGiven(@org.junit.jupiter.api.io.TempDir Path workDir)
            throws Exception {
        String token = "console-token-" + Long.toHexString(System.nanoTime());
        Path tokens = Files.writeString(workDir.resolve("tokens"), "browser:" + token + "\n");
        try (ServiceProcess guarded = ServiceProcess.start(workDir.resolve("data"), "--rest-tokens-file=" + tokens)) {
            assertThat(new Psql(guarded.pgPort()).run("CREATE TABLE guarded_table (v INT)").exitCode()).isZero();
            browser.get("http://localhost:" + guarded.httpPort() + "/#/objects");

            WebElement input = await(By.id("token"));
            assertThat(browser.findElement(By.id("page")).getText()).doesNotContain("guarded_table");
            input.sendKeys("not-the-token-at-all");
            browser.findElement(By.id("sign-in")).click();
            assertThat(await(By.id("token-error")).getText()).contains("not accepted");

            await(By.id("token")).sendKeys(token);
            browser.findElement(By.id("sign-in")).click();
            assertThat(await(By.cssSelector("table[data-kind='table'] tr[data-name='guarded_table']")).getText())
                .startsWith("guarded_table");
            screenshot("signed-in-objects");
        } finally {
            ((JavascriptExecutor) browser).executeScript("sessionStorage.clear()");
        }
    }

    private static void open(String hash) {
        browser.get("http://localhost:" + SERVICE.service().httpPort() + "/" + hash);
    }

    /** Waits until the element shows that text, through the redraws that replace it. */
    private static void awaitText(By locator, String text) {
        new WebDriverWait(browser, DEADLINE).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
            .until(page -> page.findElement(locator).getText().equals(text));
    }

    /** Clicks what the locator finds, again if the page redrew it between finding and clicking. */
    private static void click(By locator) {
        new WebDriverWait(browser, DEADLINE).ignoring(org.openqa.selenium.StaleElementReferenceException.class)
            .until(page -> {
                page.findElement(locator).click();
                return true;
            });
    }

    /** Waits until the jobs table has been drawn {@code count} more times: whatever a click sent has been answered. */
    private static void awaitRedraws(int count) {
        long drawn = draws();
        new WebDriverWait(browser, DEADLINE).until(page -> draws() >= drawn + count);
    }

    private static long draws() {
        Object draws = ((JavascriptExecutor) browser).executeScript("return Number(document.getElementById('page').dataset.draws || 0)");
        return ((Number) draws).longValue();
    }

    private static void type(String sql) {
        WebElement editor = await(By.id("sql"));
        editor.clear();
        editor.sendKeys(sql);
    }

    private static WebElement await(By locator) {
        return new WebDriverWait(browser, DEADLINE).until(page -> {
            List<WebElement> found = page.findElements(locator);
            return found.isEmpty() || !found.get(0).isDisplayed() ? null : found.get(0);
        });
    }

    private static void screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }

    private static void shoot(String name) {
        try {
            screenshot(name);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
