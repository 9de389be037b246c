package io.vrmq.console.browser;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's ACL page in a real headless Chromium against the standalone jar whose broker authenticates and
 * authorizes (ACL 2.0) and has no admin token: every write then needs an enabled Super user, which the console asks
 * for in its credentials dialog (Basic, kept in the tab's memory only). A user created in the form appears in the
 * list, an ACL entry added for it appears, and both deleted disappear. The page is opened from the NameServer's admin
 * port, so every call goes through its proxy. Screenshot: target/screenshots/acl.png.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ConsoleAclIT {
    private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(30);
    private static final String SUPER_USER = "console-admin";
    private static final String SUPER_PASSWORD = "console-admin-secret-8d2e";
    private static final String NEW_USER = "console-user";
    private static final String NEW_PASSWORD = "console-user-secret-41ab";

    @TempDir
    static Path dir;
    private static StandaloneServer server;
    private static HeadlessChromium browser;

    @BeforeAll
    static void startServerAndBrowser() throws Exception {
        server = StandaloneServer.start(dir, "", "\"authenticationEnabled\": true, \"authorizationEnabled\": true, "
            + "\"initAuthenticationUser\": \"{\\\"username\\\":\\\"" + SUPER_USER + "\\\",\\\"password\\\":\\\""
            + SUPER_PASSWORD + "\\\"}\"");
        browser = HeadlessChromium.start(dir.resolve("chromium-profile"));
    }

    @AfterAll
    static void stopAll() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aUserAndAnAclCreatedInTheFormsAppearInTheListsAndGoAwayWhenDeleted() throws Exception {
        browser.driver.get(server.consoleUrl() + "#/acl");
        waitFor(By.cssSelector("#user-table tr[data-user='" + SUPER_USER + "']"));

        type(By.id("user-name"), NEW_USER);
        type(By.id("user-password"), NEW_PASSWORD);
        browser.driver.findElement(By.id("user-submit")).click();
        type(By.id("cred-username"), SUPER_USER);      // the write was refused with 401 Basic: the dialog asks
        type(By.id("cred-password"), SUPER_PASSWORD);
        browser.driver.findElement(By.id("token-ok")).click();
        WebElement row = waitFor(By.cssSelector("#user-table tr[data-user='" + NEW_USER + "']"));
        assertTrue(row.getText().contains("Normal") && row.getText().contains("set"), "the new user's row: "
            + row.getText());

        new Select(waitFor(By.id("acl-user"))).selectByValue(NEW_USER);
        type(By.id("acl-resource"), "Topic:ConsoleAclTopic");
        browser.driver.findElement(By.cssSelector("#acl-actions input[value='Pub']")).click();
        browser.driver.findElement(By.cssSelector("#acl-actions input[value='Sub']")).click();
        browser.driver.findElement(By.id("acl-submit")).click();
        By aclRow = By.cssSelector("#acl-table tr[data-subject='User:" + NEW_USER + "']"
            + "[data-resource='Topic:ConsoleAclTopic']");
        WebElement entry = waitFor(aclRow);
        assertTrue(entry.getText().contains("Pub, Sub") && entry.getText().contains("Allow"), "the ACL entry: "
            + entry.getText());
        browser.screenshot("acl");

        entry.findElement(By.tagName("button")).click();
        acceptConfirmation();
        new WebDriverWait(browser.driver, PAGE_TIMEOUT).withMessage("the deleted ACL entry left the list\n"
            + server.tail()).until(ExpectedConditions.invisibilityOfElementLocated(aclRow));

        waitFor(By.id("user-delete-" + NEW_USER)).click();
        acceptConfirmation();
        new WebDriverWait(browser.driver, PAGE_TIMEOUT).withMessage("the deleted user left the list\n"
            + server.tail()).until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector(
                "#user-table tr[data-user='" + NEW_USER + "']")));

        Object stored = browser.driver.executeScript("return JSON.stringify(localStorage) + "
            + "JSON.stringify(sessionStorage) + document.cookie + location.href");
        assertFalse(String.valueOf(stored).contains(SUPER_PASSWORD) || String.valueOf(stored).contains(NEW_PASSWORD),
            "passwords are kept in memory only: " + stored);
    }

    private static void acceptConfirmation() {
        new WebDriverWait(browser.driver, PAGE_TIMEOUT).until(ExpectedConditions.alertIsPresent()).accept();
    }

    private static void type(By field, String text) {
        WebElement input = waitFor(field);
        input.clear();
        input.sendKeys(text);
    }

    private static WebElement waitFor(By locator) {
        return new WebDriverWait(browser.driver, PAGE_TIMEOUT).withMessage(() -> locator + "\n--- server log ---\n"
            + server.tail()).until(ExpectedConditions.visibilityOfElementLocated(locator));
    }
}
