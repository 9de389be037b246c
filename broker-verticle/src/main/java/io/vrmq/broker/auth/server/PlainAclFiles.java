package io.vrmq.broker.auth.server;

import io.vrmq.broker.auth.PlainAclAccount;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * ACL 1.0's account files, as Apache's PlainPermissionManager finds them: every {@code *.yml}/{@code *.yaml} under
 * {@code <rocketmqHome>/conf/acl} (recursively), then {@code <rocketmqHome>/conf/plain_acl.yml}; the first account
 * with an access key wins. Parsed with SnakeYAML's SafeConstructor, so a file can only make maps, lists and scalars,
 * never objects of a class it names. Blocking file I/O: call on a worker.
 */
final class PlainAclFiles {
    private static final Logger log = LoggerFactory.getLogger(PlainAclFiles.class);

    private PlainAclFiles() {
    }

    static List<PlainAclAccount> read(Path rocketmqHome) {
        List<Path> files = new ArrayList<>(aclDirectoryFiles(rocketmqHome.resolve("conf").resolve("acl")));
        Path plainAcl = rocketmqHome.resolve("conf").resolve("plain_acl.yml");
        if (Files.isRegularFile(plainAcl) && !files.contains(plainAcl)) {
            files.add(plainAcl);
        }
        Set<String> seen = new LinkedHashSet<>();
        List<PlainAclAccount> accounts = new ArrayList<>();
        for (Path file : files) {
            for (PlainAclAccount account : accountsIn(file)) {
                if (account.accessKey() != null && seen.add(account.accessKey())) {
                    accounts.add(account);
                }
            }
        }
        log.info("ACL 1.0 migration: {} accounts in {}", accounts.size(), files);
        return accounts;
    }

    private static List<Path> aclDirectoryFiles(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(Files::isRegularFile).filter(file -> file.toString().endsWith(".yml")
                || file.toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
    }

    private static List<PlainAclAccount> accountsIn(Path file) {
        Object root;
        try (InputStream in = Files.newInputStream(file)) {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("ACL 1.0 file " + file + " is not valid YAML: " + e.getMessage(), e);
        }
        if (!(root instanceof Map<?, ?> document) || !(document.get("accounts") instanceof List<?> entries)) {
            return List.of();
        }
        List<PlainAclAccount> accounts = new ArrayList<>();
        for (Object entry : entries) {
            if (entry instanceof Map<?, ?> account) {
                accounts.add(new PlainAclAccount(text(account.get("accessKey")), text(account.get("secretKey")),
                    Boolean.parseBoolean(text(account.get("admin"))), text(account.get("defaultTopicPerm")),
                    text(account.get("defaultGroupPerm")), texts(account.get("topicPerms")),
                    texts(account.get("groupPerms"))));
            }
        }
        return accounts;
    }

    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }

    private static List<String> texts(Object value) {
        if (!(value instanceof List<?> list)) {
            return List.of();
        }
        return list.stream().filter(item -> item != null).map(String::valueOf).toList();
    }
}
