package io.vrmq.client;

import io.vrmq.remoting.transport.RemotingLimits;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.Arrays;
import java.util.List;

/**
 * Settings every client shares (RocketMQ's ClientConfig names): where the NameServers are, how this client names
 * itself, how often it polls routes and heartbeats. A mutable options object in the Vert.x manner: fill it in, hand
 * it to a client, do not change it afterwards. Not thread-safe.
 *
 * @param <T> the concrete options type, so that the setters chain
 */
public abstract class ClientOptions<T extends ClientOptions<T>> {
    /** RocketMQ's pollNameServerInterval: routes are looked up again this often. */
    public static final long DEFAULT_POLL_NAME_SERVER_INTERVAL_MS = 30_000;
    /** RocketMQ's heartbeatBrokerInterval. */
    public static final long DEFAULT_HEARTBEAT_BROKER_INTERVAL_MS = 30_000;
    /** RocketMQ's mqClientApiTimeout: NameServer look-ups, offsets, heartbeats. */
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 3_000;
    /** A compressed body may inflate to at most this much: bigger is a corrupt or hostile record. */
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;
    /** RocketMQ's TopicValidator.RMQ_SYS_TRACE_TOPIC: where trace records go unless customizedTraceTopic says. */
    public static final String DEFAULT_TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC";
    /** RocketMQ's traceMsgBatchNum: trace records per trace message (the official client caps it at 20). */
    public static final int DEFAULT_TRACE_MSG_BATCH_NUM = 10;
    public static final int MAX_TRACE_MSG_BATCH_NUM = 20;
    /** The official AsyncTraceDispatcher's queue size: trace records waiting beyond this are dropped, counted. */
    public static final int DEFAULT_TRACE_QUEUE_CAPACITY = 2048;
    /** The official dispatcher's flush interval: a partial batch waits at most this long. */
    public static final long DEFAULT_TRACE_FLUSH_INTERVAL_MS = 5_000;

    private String namesrvAddr;
    private String instanceName = defaultInstanceName();
    private String clientIp = defaultClientIp();
    private long pollNameServerIntervalMs = DEFAULT_POLL_NAME_SERVER_INTERVAL_MS;
    private long heartbeatBrokerIntervalMs = DEFAULT_HEARTBEAT_BROKER_INTERVAL_MS;
    private long requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private int maxFrameBytes = RemotingLimits.DEFAULT_MAX_FRAME_BYTES;
    private boolean useTLS;
    private String accessKey;
    private String secretKey;
    private boolean enableMsgTrace;
    private String customizedTraceTopic = DEFAULT_TRACE_TOPIC;
    private int traceMsgBatchNum = DEFAULT_TRACE_MSG_BATCH_NUM;
    private int traceQueueCapacity = DEFAULT_TRACE_QUEUE_CAPACITY;
    private long traceFlushIntervalMs = DEFAULT_TRACE_FLUSH_INTERVAL_MS;

    protected abstract T self();

    /** ";"-separated "host:port" list; the client fails over between them. */
    public T setNamesrvAddr(String addresses) {
        this.namesrvAddr = addresses;
        return self();
    }

    public T setInstanceName(String name) {
        this.instanceName = name;
        return self();
    }

    public T setClientIp(String ip) {
        this.clientIp = ip;
        return self();
    }

    public T setPollNameServerIntervalMs(long intervalMs) {
        this.pollNameServerIntervalMs = intervalMs;
        return self();
    }

    public T setHeartbeatBrokerIntervalMs(long intervalMs) {
        this.heartbeatBrokerIntervalMs = intervalMs;
        return self();
    }

    public T setRequestTimeoutMs(long timeoutMs) {
        this.requestTimeoutMs = timeoutMs;
        return self();
    }

    public T setMaxBodyBytes(int bytes) {
        this.maxBodyBytes = bytes;
        return self();
    }

    public T setMaxFrameBytes(int bytes) {
        this.maxFrameBytes = bytes;
        return self();
    }

    /**
     * RocketMQ's useTLS: every connection (NameServers and brokers) uses TLS, trusting any server certificate as
     * the official client does in its default test mode.
     */
    public T setUseTLS(boolean isTls) {
        this.useTLS = isTls;
        return self();
    }

    /** Signs every request as the official AclClientRPCHook does (ACL 2.0 user name and password). */
    public T setCredentials(String accessKey, String secretKey) {
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        return self();
    }

    /**
     * Message trace in the official client's format (RocketMQ's enableMsgTrace): a producer writes a Pub record per
     * sent message, a push consumer SubBefore and SubAfter records around its listener, to the trace topic, in the
     * background; tracing never delays or fails a send or a consumption. Off by default, as in RocketMQ.
     */
    public T setEnableMsgTrace(boolean isEnabled) {
        this.enableMsgTrace = isEnabled;
        return self();
    }

    /** RocketMQ's customizedTraceTopic; default RMQ_SYS_TRACE_TOPIC (the broker's msgTraceTopicName default). */
    public T setCustomizedTraceTopic(String topic) {
        this.customizedTraceTopic = topic;
        return self();
    }

    /** RocketMQ's traceMsgBatchNum: 1..20 records per trace message. */
    public T setTraceMsgBatchNum(int records) {
        this.traceMsgBatchNum = records;
        return self();
    }

    /** Trace records waiting to be sent; more are dropped (and counted) rather than held or blocking. */
    public T setTraceQueueCapacity(int records) {
        this.traceQueueCapacity = records;
        return self();
    }

    /** A partial batch of trace records is sent after at most this long. */
    public T setTraceFlushIntervalMs(long intervalMs) {
        this.traceFlushIntervalMs = intervalMs;
        return self();
    }

    public boolean isEnableMsgTrace() {
        return enableMsgTrace;
    }

    public String getCustomizedTraceTopic() {
        return customizedTraceTopic;
    }

    public int getTraceMsgBatchNum() {
        return traceMsgBatchNum;
    }

    public int getTraceQueueCapacity() {
        return traceQueueCapacity;
    }

    public long getTraceFlushIntervalMs() {
        return traceFlushIntervalMs;
    }

    public boolean isUseTLS() {
        return useTLS;
    }

    /** Whether requests are signed. */
    public boolean hasCredentials() {
        return accessKey != null;
    }

    public String getAccessKey() {
        return accessKey;
    }

    /** For signing only; never logged. */
    public String getSecretKey() {
        return secretKey;
    }

    public String getNamesrvAddr() {
        return namesrvAddr;
    }

    public List<String> namesrvAddrList() {
        return namesrvAddr == null ? List.of() : Arrays.stream(namesrvAddr.split(";")).map(String::trim)
            .filter(address -> !address.isEmpty()).toList();
    }

    public String getInstanceName() {
        return instanceName;
    }

    public String getClientIp() {
        return clientIp;
    }

    /** "clientIp@instanceName", how brokers tell clients apart (and the allocation sorts them). */
    public String clientId() {
        return clientIp + "@" + instanceName;
    }

    public long getPollNameServerIntervalMs() {
        return pollNameServerIntervalMs;
    }

    public long getHeartbeatBrokerIntervalMs() {
        return heartbeatBrokerIntervalMs;
    }

    public long getRequestTimeoutMs() {
        return requestTimeoutMs;
    }

    public int getMaxBodyBytes() {
        return maxBodyBytes;
    }

    public RemotingLimits remotingLimits() {
        return new RemotingLimits(maxFrameBytes, Math.min(RemotingLimits.DEFAULT_MAX_HEADER_BYTES, maxFrameBytes - 1),
            requestTimeoutMs, RemotingLimits.DEFAULT_MAX_PENDING_REQUESTS);
    }

    /** @throws IllegalArgumentException naming the first bad setting and its value */
    public void validate() {
        require(!namesrvAddrList().isEmpty(), "namesrvAddr", namesrvAddr);
        require(accessKey == null || (!accessKey.isBlank() && secretKey != null && !secretKey.isEmpty()),
            "credentials (accessKey and secretKey must both be non-empty)", accessKey);
        for (String address : namesrvAddrList()) {
            require(address.lastIndexOf(':') > 0, "namesrvAddr (host:port;host:port)", namesrvAddr);
        }
        require(instanceName != null && !instanceName.isBlank(), "instanceName", instanceName);
        require(clientIp != null && !clientIp.isBlank(), "clientIp", clientIp);
        require(pollNameServerIntervalMs >= 10, "pollNameServerIntervalMs", pollNameServerIntervalMs);
        require(heartbeatBrokerIntervalMs >= 10, "heartbeatBrokerIntervalMs", heartbeatBrokerIntervalMs);
        require(requestTimeoutMs > 0, "requestTimeoutMs", requestTimeoutMs);
        require(maxBodyBytes > 0, "maxBodyBytes", maxBodyBytes);
        require(maxFrameBytes > 1024, "maxFrameBytes", maxFrameBytes);
        require(customizedTraceTopic != null && !customizedTraceTopic.isBlank(), "customizedTraceTopic",
            customizedTraceTopic);
        require(traceMsgBatchNum > 0 && traceMsgBatchNum <= MAX_TRACE_MSG_BATCH_NUM, "traceMsgBatchNum",
            traceMsgBatchNum);
        require(traceQueueCapacity > 0, "traceQueueCapacity", traceQueueCapacity);
        require(traceFlushIntervalMs >= 10, "traceFlushIntervalMs", traceFlushIntervalMs);
    }

    protected static void require(boolean holds, String setting, Object value) {
        if (!holds) {
            throw new IllegalArgumentException("invalid " + setting + ": " + value);
        }
    }

    /** The official client's default for "DEFAULT": pid#nanoTime, unique per client object. */
    private static String defaultInstanceName() {
        return ProcessHandle.current().pid() + "#" + System.nanoTime();
    }

    /** RemotingUtil.getLocalAddress's choice, from the interfaces (no DNS look-up), computed once. */
    private static String defaultClientIp() {
        return LocalAddress.CLIENT_IP;
    }

    /** Holder: the interface scan runs once, on first use. */
    private static final class LocalAddress {
        static final String CLIENT_IP = scan();

        private static String scan() {
            String fallbackIpv4 = null;
            String ipv6 = null;
            try {
                for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                    for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                        if (address.isLoopbackAddress() || address.isLinkLocalAddress()) {
                            continue;
                        }
                        String ip = address.getHostAddress();
                        if (address instanceof Inet4Address) {
                            if (!ip.startsWith("192.168")) {
                                return ip;
                            }
                            fallbackIpv4 = ip;
                        } else if (address instanceof Inet6Address && ipv6 == null) {
                            ipv6 = ip;
                        }
                    }
                }
            } catch (SocketException e) {
                return "127.0.0.1";
            }
            return fallbackIpv4 != null ? fallbackIpv4 : ipv6 != null ? ipv6 : "127.0.0.1";
        }
    }
}
