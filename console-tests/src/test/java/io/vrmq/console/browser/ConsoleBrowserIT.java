package io.vrmq.console.browser;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web console in a real headless Chromium against a running NameServer + broker (the standalone jar) with real
 * traffic from the official 5.5.0 client: what a person would check on each page. One server and one browser for the
 * class; the pages are opened from the NameServer's admin port, so every broker call goes through its proxy. The
 * broker has an admin token, so each write goes through the console's token dialog.
 * Screenshots go to target/screenshots.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleBrowserIT {
    /** Bounds every wait for the page; the console samples every 2 s and consumers commit every second. */
    private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(30);
    private static final int BACKLOG_MESSAGES = 200;
    /** The broker's admin token: every write the console makes asks for it. */
    private static final String ADMIN_TOKEN = "console-test-token-5f1c";

    @TempDir
    static Path dir;
    private static StandaloneServer server;
    private static HeadlessChromium browser;
    private static DefaultMQProducer producer;
    private static DefaultMQPushConsumer consumer;

    @BeforeAll
    static void startServerAndBrowser() throws Exception {
        server = StandaloneServer.start(dir, ADMIN_TOKEN);
        browser = HeadlessChromium.start(dir.resolve("chromium-profile"));
        producer = new DefaultMQProducer("console-test-producer");
        producer.setNamesrvAddr(server.namesrvAddr());
        producer.setInstanceName("console-test-producer-" + ProcessHandle.current().pid());
        producer.start();
    }

    @AfterAll
    static void stopAll() throws Exception {
        if (consumer != null) {
            consumer.shutdown();
        }
        if (producer != null) {
            producer.shutdown();
        }
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void aTopicCreatedInTheFormAppearsInTheList() throws Exception {
        open("#/topics");
        type(By.id("topic-name"), "ConsoleCreatedTopic");
        type(By.id("topic-read-queues"), "4");
        type(By.id("topic-write-queues"), "4");
        browser.driver.findElement(By.id("topic-submit")).click();
        enterTokenWhenAsked();
        WebElement row = waitFor(By.cssSelector("#topic-table tr[data-topic='ConsoleCreatedTopic']"));
        assertTrue(row.getText().contains("4"), "the new topic's row shows its 4 queues: " + row.getText());
        row.click();
        WebElement detail = waitFor(By.cssSelector("#topic-detail h2"));
        assertEquals("ConsoleCreatedTopic", detail.getText());
        waitUntil("the topic's queues on broker-a are listed", () ->
            browser.driver.findElement(By.id("topic-detail")).getText().contains("Queues on broker-a"));
        browser.screenshot("topics");
        Object stored = browser.driver.executeScript("return JSON.stringify(localStorage) + "
            + "JSON.stringify(sessionStorage) + document.cookie + location.href");
        assertFalse(String.valueOf(stored).contains(ADMIN_TOKEN), "the token is kept in memory only: " + stored);
    }

    @Test
    @Order(2)
    void aGroupsLagGoesDownAsItsConsumerRuns() throws Exception {
        String topic = "ConsoleLagTopic";
        String group = "ConsoleLagGroup";
        send(new Message(topic, "warm-up".getBytes(StandardCharsets.UTF_8)));
        CountDownLatch[] gate = {new CountDownLatch(0)};
        AtomicInteger consumed = new AtomicInteger();
        consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(server.namesrvAddr());
        consumer.setInstanceName("console-test-consumer-" + ProcessHandle.current().pid());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPersistConsumerOffsetInterval(1_000);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            try {
                // Held while the test looks at the backlog: the consumer is "slow" until the gate opens.
                gate[0].await(PAGE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            }
            consumed.addAndGet(messages.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        waitUntil("the warm-up message consumed", () -> consumed.get() >= 1);

        gate[0] = new CountDownLatch(1);
        for (int i = 0; i < BACKLOG_MESSAGES; i++) {
            send(new Message(topic, ("backlog-" + i).getBytes(StandardCharsets.UTF_8)));
        }
        open("#/groups");
        By lagCell = By.cssSelector("#group-table tr[data-group='" + group + "'] td[data-field='lag']");
        waitUntil("the group's lag shows the backlog", () -> lagOf(lagCell) >= BACKLOG_MESSAGES / 2);
        long highLag = lagOf(lagCell);
        waitUntil("the group's details opened", () -> {
            // The list is drawn again at every sample, so the row found may be replaced before the click.
            browser.driver.findElement(By.cssSelector("#group-table tr[data-group='" + group + "']")).click();
            return true;
        });
        waitFor(By.id("group-total-lag"));
        browser.screenshot("groups-backlog");

        gate[0].countDown();
        waitUntil("the group's lag back to 0 as the consumer runs", () -> lagOf(lagCell) == 0);
        waitUntil("the lag chart's latest point is 0 for the group", () ->
            "0".equals(browser.driver.findElement(By.id("chart-group-lag")).getAttribute("data-last-values")));
        assertTrue(highLag >= BACKLOG_MESSAGES / 2, "the backlog was visible before the consumer ran: " + highLag);
        browser.screenshot("groups-caught-up");
    }

    @Test
    @Order(3)
    void aMessageFoundByKeyShowsItsBody() throws Exception {
        String body = "order 4711 shipped to the console test";
        Message message = new Message("ConsoleKeyTopic", "TagShip", "order-4711", body.getBytes(StandardCharsets.UTF_8));
        send(message);
        open("#/messages");
        type(By.id("key-topic"), "ConsoleKeyTopic");
        type(By.id("key-key"), "order-4711");
        // The index is written just after the store: search again, as a person would, until it answers.
        waitUntil("the message found by its key", () -> {
            browser.driver.findElement(By.id("key-submit")).click();
            return new WebDriverWait(browser.driver, Duration.ofSeconds(2)).until(driver -> {
                List<WebElement> found = driver.findElements(By.id("message-body"));
                return !found.isEmpty() && found.get(0).getText().contains(body);
            });
        });
        String panel = browser.driver.findElement(By.id("message-panel")).getText();
        assertTrue(panel.contains("TagShip") && panel.contains("order-4711"), "tags and keys shown: " + panel);
        browser.driver.findElement(By.id("body-hex")).click();
        assertTrue(browser.driver.findElement(By.id("message-body")).getText().startsWith("00000000  6f 72 64"),
            "the hex view starts with the body's bytes");
        browser.driver.findElement(By.id("body-text")).click();
        browser.screenshot("messages");

        // Resend to a group: a write, so the console asks for the token again (the reload forgot it).
        type(By.id("resend-group"), "ConsoleLagGroup");
        browser.driver.findElement(By.id("resend-submit")).click();
        enterTokenWhenAsked();
        waitUntil("the resend confirmed", () -> browser.driver.findElement(By.id("toast")).getText()
            .startsWith("Resent to %RETRY%ConsoleLagGroup"));
    }

    @Test
    @Order(4)
    void theClusterPageShowsTheBrokerAndItsLiveRates() throws Exception {
        open("#/cluster");
        // The table is drawn again at every sample: each check finds its elements afresh.
        waitUntil("the master broker with its version and put TPS shown", () -> {
            String text = browser.driver.findElement(By.cssSelector("#broker-table tr[data-broker]")).getText();
            return text.contains("MASTER") && text.contains("V5_5_0") && !browser.driver.findElement(By.cssSelector(
                "#broker-table tr[data-broker] td[data-field='putTps']")).getText().equals("–");
        });
        waitUntil("the put TPS chart has drawn a line", () ->
            !browser.driver.findElements(By.cssSelector("#chart-put-tps polyline")).isEmpty());
        browser.screenshot("cluster");
    }

    private static void send(Message message) throws Exception {
        assertEquals(SendStatus.SEND_OK, producer.send(message).getSendStatus());
    }

    /** Loads the console afresh (not only a new hash): what the tab held in memory, the token too, is gone. */
    private static void open(String hash) {
        browser.driver.get("about:blank");
        browser.driver.get(server.consoleUrl() + hash);
        waitUntil("the console started", () -> "true".equals(browser.driver.findElement(By.tagName("body"))
            .getAttribute("data-ready")));
    }

    /** The token dialog a refused write opens: type the token and confirm. */
    private static void enterTokenWhenAsked() {
        type(By.id("token-input"), ADMIN_TOKEN);
        browser.driver.findElement(By.id("token-ok")).click();
    }

    private static void type(By field, String text) {
        WebElement input = waitFor(field);
        input.clear();
        input.sendKeys(text);
    }

    private static WebElement waitFor(By locator) {
        return new WebDriverWait(browser.driver, PAGE_TIMEOUT)
            .until(ExpectedConditions.visibilityOfElementLocated(locator));
    }

    private static long lagOf(By cell) {
        List<WebElement> cells = browser.driver.findElements(cell);
        return cells.isEmpty() ? -1 : Long.parseLong(cells.get(0).getText().replace(",", ""));
    }

    /** Polls the condition (exceptions count as "not yet") until it holds, failing with a screenshot's name. */
    private static void waitUntil(String what, CheckedCondition condition) {
        new WebDriverWait(browser.driver, PAGE_TIMEOUT).withMessage(what + "\n--- server log ---\n" + server.tail())
            .ignoring(RuntimeException.class).until(driver -> {
                try {
                    return condition.holds();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
    }

    @FunctionalInterface
    private interface CheckedCondition {
        boolean holds() throws Exception;
    }
}
