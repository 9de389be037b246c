package io.vrmq.store.format;

import java.net.InetSocketAddress;

/** A host as a record stores it: raw address bytes (4 or 16) and port. Immutable. */
public record HostAddress(byte[] address, int port) {
    public HostAddress {
        if (address.length != 4 && address.length != 16) {
            throw new IllegalArgumentException("host address must be 4 or 16 bytes, got " + address.length);
        }
    }

    public static HostAddress of(InetSocketAddress socketAddress) {
        if (socketAddress.isUnresolved()) {
            throw new IllegalArgumentException("unresolved host " + socketAddress);
        }
        return new HostAddress(socketAddress.getAddress().getAddress(), socketAddress.getPort());
    }

    public boolean isIpv6() {
        return address.length == 16;
    }
}
