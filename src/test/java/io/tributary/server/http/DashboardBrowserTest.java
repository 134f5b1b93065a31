package io.tributary.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless Chromium (the OS packages {@code chromium} and
 * {@code chromium-driver}, paths given explicitly so Selenium Manager downloads nothing) while a
 * rate-limited backfill runs: the job's progress bar advances without a reload, and Cancel (after
 * the confirmation) cancels the job, which SQL then confirms. Screenshots go to
 * {@code target/dashboard-*.png}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DashboardBrowserTest {
    private static final File CHROMIUM = new File("/usr/bin/chromium");
    private static final File CHROMEDRIVER = new File("/usr/bin/chromedriver");

    private static WebDriver browser() {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER)
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--window-size=1400,1500");
        return new ChromeDriver(service, options);
    }

    private static void screenshot(WebDriver driver, String name) throws IOException {
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        Files.copy(
                ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE).toPath(),
                target,
                StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The job's progress as its bar shows it, read in one script: the page rebuilds its rows at
     * every poll, so an element found in one call may be gone by the next. -1 while no bar shows.
     */
    private static double progress(WebDriver driver) {
        Object p = ((JavascriptExecutor) driver)
                .executeScript("const e = document.querySelector('#jobs .progress-fill');"
                        + " return e ? e.dataset.progress : null;");
        return p == null ? -1 : Double.parseDouble(p.toString());
    }

    /** Clicks what {@code selector} finds, again if the poll replaced it in between. */
    private static void click(WebDriverWait wait, String selector) {
        wait.until(d -> {
            d.findElement(By.cssSelector(selector)).click();
            return true;
        });
    }

    @Test
    void progressBarAdvancesAndCancelCancels() throws Exception {
        assumeTrue(
                CHROMIUM.canExecute() && CHROMEDRIVER.canExecute(),
                "needs the OS packages chromium and chromium-driver (.ci/run installs them)");
        try (DashboardFixture f = new DashboardFixture(null)) {
            f.exec(
                    "CREATE TABLE orders (id int PRIMARY KEY, customer int, amount int)",
                    "INSERT INTO orders SELECT g, g % 97, g % 1000 FROM generate_series(1, 40000) g",
                    "CREATE MATERIALIZED VIEW by_customer AS"
                            + " SELECT customer, count(*) AS n, sum(amount) AS total FROM orders GROUP BY customer",
                    "CREATE TABLE clicks (id bigint PRIMARY KEY, page int) WITH (connector = 'datagen',"
                            + " fields.id.kind = 'sequence', fields.page.start = '1', fields.page.end = '50',"
                            + " datagen.rows.per.second = '2000', datagen.split.num = '2')");
            int jobId;
            try (Connection c = f.connect();
                    Statement st = c.createStatement()) {
                st.execute("SET background_ddl = true");
                st.execute("SET backfill_rate_limit = 250");
                st.execute("CREATE MATERIALIZED VIEW big_orders AS SELECT o.id, o.amount, b.n FROM orders o"
                        + " JOIN by_customer b ON o.customer = b.customer WHERE o.amount > 10");
                try (ResultSet rs = st.executeQuery("SELECT job_id FROM tributary_catalog.ddl_progress")) {
                    assertTrue(rs.next());
                    jobId = rs.getInt(1);
                }
            }
            WebDriver driver = browser();
            try {
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
                wait.ignoring(StaleElementReferenceException.class);
                driver.get(f.url("/"));
                wait.until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#jobs tr[data-job-id='" + jobId + "']")));
                double first = wait.until(d -> progress(d) > 0 ? progress(d) : null);
                // the bar moves as the page polls, with no reload
                // read where a re-render's stale row is retried, as every other read of the page is
                double moved = wait.until(d -> progress(d) > first ? progress(d) : null);
                assertTrue(moved < 100);
                // a view's plan drawn as a graph, and the sources' rates, for the screenshot
                wait.until(ExpectedConditions.elementToBeClickable(
                                By.cssSelector("#views tr[data-view='by_customer']")))
                        .click();
                wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#plan g[data-node]")));
                // each operator of the running view shows its rows/s and rows out
                wait.until(d -> d.findElements(By.cssSelector("#plan text.rate")).stream()
                        .anyMatch(e -> e.getText().contains("rows/s")));
                wait.until(d -> !d.findElements(By.cssSelector("#sources tr[data-table='clicks']"))
                        .isEmpty());
                wait.until(d ->
                        !d.findElement(By.cssSelector("#jobs .rate")).getText().equals("–"));
                screenshot(driver, "dashboard-backfill.png");

                click(wait, "button.cancel[data-job-id='" + jobId + "']");
                wait.until(ExpectedConditions.alertIsPresent()).accept();
                wait.until(ExpectedConditions.invisibilityOfElementLocated(
                        By.cssSelector("#jobs tr[data-job-id='" + jobId + "']")));
                screenshot(driver, "dashboard-cancelled.png");
            } finally {
                driver.quit();
            }
            try (Connection c = f.connect();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT count(*) FROM tributary_catalog.relations WHERE name = 'big_orders'")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the cancelled view is gone");
            }
            assertEquals(0, f.json("/api/jobs").get("jobs").size());
        }
    }
}
