package io.vrmq.remoting.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Date;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SelfSignedCertificatesTest {
    @Test
    void theCertificateIsSelfSignedForItsKeyAndValidNow() throws Exception {
        SelfSignedCertificates.Issued issued = SelfSignedCertificates.create("localhost");
        issued.certificate().verify(issued.keys().getPublic());
        issued.certificate().checkValidity(new Date());
        assertEquals("CN=localhost", issued.certificate().getSubjectX500Principal().getName());
        assertEquals(issued.certificate().getSubjectX500Principal(), issued.certificate().getIssuerX500Principal());
        assertEquals(3, issued.certificate().getVersion());
    }

    @Test
    void everyCertificateHasItsOwnKeyAndSerial() throws Exception {
        SelfSignedCertificates.Issued first = SelfSignedCertificates.create("localhost");
        SelfSignedCertificates.Issued second = SelfSignedCertificates.create("localhost");
        assertNotEquals(first.certificate().getSerialNumber(), second.certificate().getSerialNumber());
        assertNotEquals(first.keys().getPublic(), second.keys().getPublic());
    }
}
