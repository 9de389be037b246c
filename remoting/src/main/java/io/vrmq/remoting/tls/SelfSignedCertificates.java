package io.vrmq.remoting.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * A fresh self-signed certificate for test mode (Apache's default): an EC P-256 key and an X.509 v3 certificate for
 * CN=localhost, valid from a day ago for ten years, signed with SHA256withECDSA.
 *
 * <p>Why not Netty's or Vert.x's SelfSignedCertificate: without BouncyCastle they make an RSA key (seconds of CPU
 * in a server JVM running C1 only, so the first TLS client timed out) or run keytool in a child process. An EC key
 * takes milliseconds, and the JDK signs; only the certificate's DER structure is written here:
 *
 * <pre>
 *   Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }
 *   TBSCertificate ::= SEQUENCE { [0] version v3, serialNumber, signature, issuer, validity, subject,
 *                                 subjectPublicKeyInfo (the key's own X.509 encoding) }
 * </pre>
 * Stateless; any thread.
 */
final class SelfSignedCertificates {
    /** ecdsa-with-SHA256, 1.2.840.10045.4.3.2. */
    private static final byte[] ECDSA_WITH_SHA256 = {0x06, 0x08, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x04,
        0x03, 0x02};
    /** id-at-commonName, 2.5.4.3. */
    private static final byte[] COMMON_NAME = {0x06, 0x03, 0x55, 0x04, 0x03};
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'");
    private static final int VALIDITY_YEARS = 10;

    /** A key and its certificate. */
    record Issued(KeyPair keys, X509Certificate certificate) {
    }

    private SelfSignedCertificates() {
    }

    static Issued create(String commonName) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = generator.generateKeyPair();
        byte[] algorithm = sequence(ECDSA_WITH_SHA256);
        byte[] name = sequence(set(sequence(COMMON_NAME, tlv(0x0c, commonName.getBytes(StandardCharsets.UTF_8)))));
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        byte[] validity = sequence(time(now.minusDays(1)), time(now.plusYears(VALIDITY_YEARS)));
        byte[] serial = tlv(0x02, new BigInteger(63, new SecureRandom()).add(BigInteger.ONE).toByteArray());
        byte[] version = tlv(0xa0, tlv(0x02, new byte[] {2}));
        byte[] tbs = sequence(version, serial, algorithm, name, validity, name, keys.getPublic().getEncoded());
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(keys.getPrivate());
        signer.update(tbs);
        byte[] signature = signer.sign();
        byte[] bitString = new byte[signature.length + 1];   // leading 0: no unused bits
        System.arraycopy(signature, 0, bitString, 1, signature.length);
        byte[] certificate = sequence(tbs, algorithm, tlv(0x03, bitString));
        X509Certificate parsed = (X509Certificate) CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(certificate));
        parsed.verify(keys.getPublic());
        return new Issued(keys, parsed);
    }

    private static byte[] time(ZonedDateTime instant) {
        return tlv(0x18, GENERALIZED_TIME.format(instant).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] sequence(byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    private static byte[] set(byte[]... parts) {
        return tlv(0x31, concat(parts));
    }

    /** tag, DER length (short or long form), value. */
    private static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
        out.write(tag);
        int length = value.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = length > 0xffff ? 3 : length > 0xff ? 2 : 1;
            out.write(0x80 | bytes);
            for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
                out.write(length >>> shift);
            }
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
