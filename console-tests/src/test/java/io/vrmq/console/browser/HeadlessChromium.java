package io.vrmq.console.browser;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Debian's Chromium, headless, driven through Debian's chromedriver by Selenium. Both paths come from system
 * properties (console.chromium, console.chromedriver; /usr/bin by default); a missing one fails the tests with what to
 * install, since .ci/run installs both. The flags keep Chromium off the network (this machine's is closed) and start
 * it with a fresh profile. One per test class; test thread only.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final String INSTALL_HINT = " (Debian: apt-get install chromium chromium-driver; .ci/run does it)";

    final ChromeDriver driver;
    private final Path screenshots;

    private HeadlessChromium(ChromeDriver driver, Path screenshots) {
        this.driver = driver;
        this.screenshots = screenshots;
    }

    static HeadlessChromium start(Path profileDir) throws IOException {
        String chromium = System.getProperty("console.chromium", "/usr/bin/chromium");
        String chromedriver = System.getProperty("console.chromedriver", "/usr/bin/chromedriver");
        requireExecutable(chromium, "Chromium");
        requireExecutable(chromedriver, "ChromeDriver");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1360,960", "--user-data-dir=" + profileDir);
        ChromeDriverService service = new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(chromedriver)).usingAnyFreePort().build();
        Path screenshots = Path.of(System.getProperty("console.screenshots", "target/screenshots"));
        Files.createDirectories(screenshots);
        return new HeadlessChromium(new ChromeDriver(service, options), screenshots);
    }

    /** Saves what the browser shows as {@code <name>.png} under target/screenshots. */
    Path screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Path target = screenshots.resolve(name + ".png");
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    @Override
    public void close() {
        driver.quit();
    }

    private static void requireExecutable(String path, String what) {
        if (!Files.isExecutable(Path.of(path))) {
            throw new IllegalStateException(what + " not found at " + path + INSTALL_HINT);
        }
    }
}
