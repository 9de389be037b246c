package io.vrmq.broker.namesrv;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vrmq.broker.role.RoleState;
import io.vrmq.broker.topic.TopicConfigTable;
import io.vrmq.remoting.body.RegisterBrokerBody;
import io.vrmq.remoting.body.TopicConfig;
import io.vrmq.remoting.body.TopicConfigSerializeWrapper;
import io.vrmq.remoting.json.RemotingJson;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.protocol.RequestCode;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.transport.RemotingClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.zip.CRC32;

/**
 * Registers this broker (its topics and data version) with every configured NameServer: at start and every
 * registerNameServerPeriod with every topic, and at once with only the topic when one is created or updated;
 * unregisters on clean shutdown. NameServers never talk
 * to each other, so each gets every registration; one that is down is retried on the next round.
 * Thread-safe: all calls go through the {@link RemotingClient}.
 */
public final class NameServerRegistrar {
    private static final Logger log = LoggerFactory.getLogger(NameServerRegistrar.class);
    /** The REGISTER_BROKER extField with the admin address (the NameServer's BrokerAdminAddresses reads it). */
    static final String ADMIN_ADDR_FIELD = "vrmqAdminAddr";

    private final RemotingClient client;
    private final RemotingJson json;
    private final TopicConfigTable topics;
    private final List<String> namesrvAddrs;
    private final BrokerIdentity identity;
    private final RoleState role;
    private final long registerTimeoutMs;
    /** "host:port" of this broker's admin API, announced to vrmq NameServers for their console; null: none. */
    private volatile String adminAddr;
    private volatile BiConsumer<String, String> masterListener = (masterAddr, haServerAddr) -> {
    };

    public NameServerRegistrar(RemotingClient client, RemotingJson json, TopicConfigTable topics,
                               List<String> namesrvAddrs, BrokerIdentity identity, RoleState role,
                               RegistrationConfig registration) {
        this.client = client;
        this.registerTimeoutMs = registration.registerBrokerTimeoutMills();
        this.json = json;
        this.topics = topics;
        this.namesrvAddrs = List.copyOf(namesrvAddrs);
        this.identity = identity;
        this.role = role;
    }

    /**
     * Told, after each accepted registration, the group's master address and HA address as that NameServer knows
     * them (null when it knows no master): how a slave finds its master. Set once at start-up.
     */
    public void onMasterNamed(BiConsumer<String, String> listener) {
        this.masterListener = listener;
    }

    /**
     * Announces the admin API's address in every later registration, as the extField {@value #ADMIN_ADDR_FIELD}
     * (Apache's NameServer ignores it); the NameServer's console reaches this broker's admin API there.
     */
    public void announceAdminAddr(String hostAndPort) {
        this.adminAddr = hostAndPort;
    }

    /**
     * Registers with every NameServer; completes when each has answered or failed (failures are logged), with
     * true when every one accepted.
     */
    public Future<Boolean> registerAll() {
        if (role.current().brokerId() < 0) {
            return Future.succeededFuture(false);   // controller mode without a role yet: isolated, as RocketMQ's
        }
        return register(topics.snapshot());
    }

    /**
     * After a topic was created or updated: REGISTER_BROKER with only that topic and the table's whole data version
     * (RocketMQ's registerIncrementBrokerData), so that one change does not send every topic again. NameServers
     * merge it into what the last full registration gave them; the periodic registration stays full. A NameServer
     * that does not know this broker yet refuses it (Apache's) or keeps just that topic until the next full one
     * (ours): either way the full registration at the next period brings the rest.
     */
    public Future<Boolean> registerTopic(TopicConfig topic) {
        if (role.current().brokerId() < 0) {
            return Future.succeededFuture(false);
        }
        return register(new TopicConfigSerializeWrapper(Map.of(topic.topicName(), topic), topics.dataVersion()));
    }

    private Future<Boolean> register(TopicConfigSerializeWrapper topicsToSend) {
        Buffer body = json.encode(new RegisterBrokerBody(topicsToSend, List.of()));
        Map<String, String> header = identityHeader();
        header.put("haServerAddr", identity.haServerAddr());
        header.put("compressed", "false");
        header.put("enableActingMaster", "false");
        header.put("bodyCrc32", Long.toString(crc32(body)));
        String announcedAdminAddr = adminAddr;
        if (announcedAdminAddr != null) {
            header.put(ADMIN_ADDR_FIELD, announcedAdminAddr);
        }
        List<Future<Boolean>> rounds = new ArrayList<>();
        for (String addr : namesrvAddrs) {
            rounds.add(client.invoke(addr, RemotingCommand.request(RequestCode.REGISTER_BROKER, header, body),
                    registerTimeoutMs)
                .map(response -> {
                    if (response.code() != ResponseCode.SUCCESS) {
                        log.warn("register with name server {} refused: {} {}", addr, response.code(),
                            response.remark());
                    } else {
                        masterListener.accept(response.header().optionalString("masterAddr"),
                            response.header().optionalString("haServerAddr"));
                    }
                    return response.code() == ResponseCode.SUCCESS;
                })
                .recover(error -> {
                    log.warn("register with name server {} failed: {}", addr, error.getMessage());
                    return Future.succeededFuture(false);
                }));
        }
        return Future.join(rounds).map(all -> rounds.stream().allMatch(Future::result));
    }

    /**
     * UNREGISTER_BROKER to every NameServer at once; completes when each answered, failed or took {@code timeoutMs}
     * (a failure is logged, never returned: the NameServer expires us anyway).
     */
    public Future<Void> unregisterAll(long timeoutMs) {
        if (role.current().brokerId() < 0) {
            return Future.succeededFuture();
        }
        List<Future<Void>> rounds = new ArrayList<>();
        for (String addr : namesrvAddrs) {
            rounds.add(client.invoke(addr, RemotingCommand.request(RequestCode.UNREGISTER_BROKER, identityHeader(),
                    null), timeoutMs)
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)   // the connect as well, when none is open yet
                .<Void>mapEmpty()
                .recover(error -> {
                    log.warn("unregister from name server {} failed: {}", addr, error.getMessage());
                    return Future.succeededFuture();
                }));
        }
        return Future.join(rounds).mapEmpty();
    }

    private Map<String, String> identityHeader() {
        Map<String, String> header = new HashMap<>();
        header.put("brokerName", identity.brokerName());
        header.put("brokerAddr", identity.brokerAddr());
        header.put("clusterName", identity.clusterName());
        header.put("brokerId", Long.toString(role.current().brokerId()));
        return header;
    }

    private static long crc32(Buffer body) {
        CRC32 crc = new CRC32();
        crc.update(body.getBytes());
        return crc.getValue() & 0x7FFFFFFFL;
    }
}
