package io.vrmq.broker.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * IP addresses and CIDR ranges (IPv4 and IPv6) of ACL entries. Only literals are accepted: nothing here ever
 * resolves a host name (InetAddress is given only strings that already look like addresses). Stateless.
 */
public final class SourceIps {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    private SourceIps() {
    }

    /** An address ("10.0.0.1", "::1") or a range ("10.0.0.0/8", "fe80::/10"). */
    public static boolean isValidIpOrCidr(String value) {
        if (value == null) {
            return false;
        }
        int slash = value.indexOf('/');
        byte[] address = literal(slash < 0 ? value : value.substring(0, slash));
        if (address == null) {
            return false;
        }
        if (slash < 0) {
            return true;
        }
        Integer bits = prefixBits(value.substring(slash + 1), address.length * 8);
        return bits != null;
    }

    /** Whether {@code ip} (a literal from a socket) is {@code rangeOrIp} or inside it. */
    public static boolean contains(String rangeOrIp, String ip) {
        byte[] target = literal(ip);
        if (target == null || rangeOrIp == null) {
            return false;
        }
        int slash = rangeOrIp.indexOf('/');
        byte[] base = literal(slash < 0 ? rangeOrIp : rangeOrIp.substring(0, slash));
        if (base == null || base.length != target.length) {
            return false;
        }
        Integer bits = slash < 0 ? Integer.valueOf(base.length * 8)
            : prefixBits(rangeOrIp.substring(slash + 1), base.length * 8);
        if (bits == null) {
            return false;
        }
        for (int bit = 0; bit < bits; bit++) {
            int mask = 0x80 >>> (bit % 8);
            if ((base[bit / 8] & mask) != (target[bit / 8] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** The address bytes of an IP literal, or null when {@code text} is not one. */
    static byte[] literal(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String address = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        int zone = address.indexOf('%');
        if (zone >= 0) {
            address = address.substring(0, zone);
        }
        if (IPV4.matcher(address).matches()) {
            for (String part : address.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return null;
                }
            }
        } else if (!IPV6.matcher(address).matches()) {
            return null;
        }
        try {
            byte[] bytes = InetAddress.getByName(address).getAddress();   // a literal: no lookup happens
            return bytes.length == 16 && isMappedIpv4(bytes) ? java.util.Arrays.copyOfRange(bytes, 12, 16) : bytes;
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static boolean isMappedIpv4(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    }

    private static Integer prefixBits(String text, int maxBits) {
        if (text.isEmpty() || text.length() > 3 || !text.chars().allMatch(Character::isDigit)) {
            return null;
        }
        int bits = Integer.parseInt(text);
        return bits <= maxBits ? bits : null;
    }
}
