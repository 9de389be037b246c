package io.vrmq.namesrv.admin;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The admin HTTP address ("host:port") each vrmq broker announces in its REGISTER_BROKER request (the extField
 * {@value #EXT_FIELD}; Apache's NameServer ignores it, and an Apache broker never sends it), by broker address. The
 * console reaches a broker's admin API through this NameServer's {@link BrokerAdminProxy}, which only forwards to a
 * broker that is live in the route tables, so an entry left by a broker that went away leads nowhere. Bounded by the
 * number of broker addresses ever registered. Thread-safe.
 */
public final class BrokerAdminAddresses {
    /** The REGISTER_BROKER extField carrying the broker's admin address. */
    public static final String EXT_FIELD = "vrmqAdminAddr";

    private final Map<String, String> adminAddrByBrokerAddr = new ConcurrentHashMap<>();

    /** Records (or, with a null or blank value, forgets) the admin address a broker announced. */
    public void announced(String brokerAddr, String adminAddr) {
        if (adminAddr == null || adminAddr.isBlank()) {
            adminAddrByBrokerAddr.remove(brokerAddr);
        } else {
            adminAddrByBrokerAddr.put(brokerAddr, adminAddr.trim());
        }
    }

    /** The admin address the broker at {@code brokerAddr} announced, or null. */
    public String of(String brokerAddr) {
        return adminAddrByBrokerAddr.get(brokerAddr);
    }
}
