package io.vrmq.client.message;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Calendar;
import java.util.Collections;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The official client's message id (UNIQ_KEY, MessageClientIDSetter), so that ids from our producer and the official
 * one look alike and queries by id work across clients. Uppercase hex of:
 * <pre>
 *  size   field
 *  4|16   ip          this host's address (IPv4, or IPv6 when the host has no usable IPv4)
 *  2      pid         low 16 bits of the process id
 *  4      loader      hash code of the class loader that loaded this class
 *  4      time        ms since the start of the current month (local time zone)
 *  2      counter     increments per id, wraps
 * </pre>
 * The first three fields are fixed per generator. Thread-safe.
 */
public final class MessageIdGenerator {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private final String fixedPrefix;
    private final LongSupplier clockMs;
    private final AtomicInteger counter = new AtomicInteger();
    private volatile long monthStartMs;
    private volatile long nextMonthStartMs;

    public MessageIdGenerator(byte[] ip, int pid, int classLoaderHash, LongSupplier clockMs) {
        ByteBuffer fixed = ByteBuffer.allocate(ip.length + 2 + 4);
        fixed.put(ip).putShort((short) pid).putInt(classLoaderHash);
        this.fixedPrefix = HEX.formatHex(fixed.array());
        this.clockMs = clockMs;
        resetMonth(clockMs.getAsLong());
    }

    /** A generator for this process: its address, pid and class loader, the system clock. */
    public static MessageIdGenerator forThisProcess() {
        return new MessageIdGenerator(localAddress(), (int) ProcessHandle.current().pid(),
            MessageIdGenerator.class.getClassLoader().hashCode(), System::currentTimeMillis);
    }

    public String next() {
        long now = clockMs.getAsLong();
        if (now >= nextMonthStartMs) {
            resetMonth(now);
        }
        int sinceMonthStartMs = (int) (now - monthStartMs);
        if (sinceMonthStartMs < 0 && sinceMonthStartMs > -1_000_000) {
            sinceMonthStartMs = 0;    // the clock stepped back a little (NTP), as the official client clamps it
        }
        ByteBuffer variable = ByteBuffer.allocate(6);
        variable.putInt(sinceMonthStartMs).putShort((short) counter.getAndIncrement());
        return fixedPrefix + HEX.formatHex(variable.array());
    }

    private synchronized void resetMonth(long nowMs) {
        Calendar calendar = Calendar.getInstance();
        calendar.setTimeInMillis(nowMs);
        calendar.set(Calendar.DAY_OF_MONTH, 1);
        calendar.set(Calendar.HOUR_OF_DAY, 0);
        calendar.set(Calendar.MINUTE, 0);
        calendar.set(Calendar.SECOND, 0);
        calendar.set(Calendar.MILLISECOND, 0);
        monthStartMs = calendar.getTimeInMillis();
        calendar.add(Calendar.MONTH, 1);
        nextMonthStartMs = calendar.getTimeInMillis();
    }

    /**
     * UtilAll.getIP's choice, interface by interface in the JDK's order: the first IPv4 outside 10/8, 127/8,
     * 172.16/12 and 192.168/16, or the first IPv6 that is not wildcard, link-local, loopback or site-local; else the
     * first internal IPv4 (a non-loopback one preferred). The JDK lists a Linux interface's IPv6 addresses first, so
     * a host with a global or ULA IPv6 gets 56-character ids, as the official client does there.
     */
    static byte[] localAddress() {
        byte[] internalIpv4 = null;
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    byte[] bytes = address.getAddress();
                    if (address instanceof Inet4Address) {
                        if (!isInternalIpv4(bytes)) {
                            return bytes;
                        }
                        if (internalIpv4 == null || internalIpv4[0] == (byte) 127) {
                            internalIpv4 = bytes;
                        }
                    } else if (address instanceof Inet6Address && !address.isAnyLocalAddress()
                        && !address.isLinkLocalAddress() && !address.isLoopbackAddress()
                        && !address.isSiteLocalAddress()) {
                        return bytes;
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException("cannot list network interfaces for the message id", e);
        }
        return internalIpv4 != null ? internalIpv4 : new byte[] {127, 0, 0, 1};
    }

    private static boolean isInternalIpv4(byte[] ip) {
        int first = ip[0] & 0xFF;
        int second = ip[1] & 0xFF;
        return first == 10 || first == 127 || (first == 172 && second >= 16 && second <= 31)
            || (first == 192 && second == 168);
    }
}
