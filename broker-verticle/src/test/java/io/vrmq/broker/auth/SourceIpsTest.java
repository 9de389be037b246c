package io.vrmq.broker.auth;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 5, unit = TimeUnit.SECONDS)
class SourceIpsTest {
    @Test
    void addressesAndRangesOfBothFamiliesAreValidAndHostNamesAreNot() {
        assertTrue(SourceIps.isValidIpOrCidr("10.0.0.1"));
        assertTrue(SourceIps.isValidIpOrCidr("10.0.0.0/8"));
        assertTrue(SourceIps.isValidIpOrCidr("::1"));
        assertTrue(SourceIps.isValidIpOrCidr("fe80::/10"));
        assertFalse(SourceIps.isValidIpOrCidr("10.0.0.256"));
        assertFalse(SourceIps.isValidIpOrCidr("10.0.0.0/33"));
        assertFalse(SourceIps.isValidIpOrCidr("localhost"));
        assertFalse(SourceIps.isValidIpOrCidr("example.com"));
        assertFalse(SourceIps.isValidIpOrCidr(""));
    }

    @Test
    void aRangeContainsExactlyTheAddressesOfItsPrefix() {
        assertTrue(SourceIps.contains("10.0.0.0/8", "10.255.1.2"));
        assertFalse(SourceIps.contains("10.0.0.0/8", "11.0.0.1"));
        assertTrue(SourceIps.contains("127.0.0.1", "127.0.0.1"));
        assertFalse(SourceIps.contains("127.0.0.1", "127.0.0.2"));
        assertTrue(SourceIps.contains("fe80::/10", "fe80::1%lo"));
        assertFalse(SourceIps.contains("10.0.0.0/8", "::1"));
        assertTrue(SourceIps.contains("0.0.0.0/0", "8.8.8.8"));
    }
}
