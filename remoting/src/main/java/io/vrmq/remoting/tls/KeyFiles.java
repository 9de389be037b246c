package io.vrmq.remoting.tls;

import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.net.ssl.KeyManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A certificate chain and its private key from PEM files, the key plain PKCS#8 ({@code BEGIN PRIVATE KEY}) or
 * encrypted PKCS#8 ({@code BEGIN ENCRYPTED PRIVATE KEY}, e.g. {@code openssl pkcs8 -topk8 -v2 aes-256-cbc}) with
 * Apache's {@code tls.server.keyPassword} / {@code tls.client.keyPassword}, as a KeyManagerFactory.
 *
 * <p>Why our own reader: Vert.x's PEM options take no key password, and Netty's reader (which does) is not public.
 * The JDK decrypts: PBES2 (PBKDF2 + AES, openssl's default) is named by its parameters, as the JDK's own providers
 * expect. Blocking file reads: call on a worker or at start. Stateless.
 */
public final class KeyFiles {
    private static final Pattern PEM_BLOCK = Pattern.compile(
        "-----BEGIN ([A-Z ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)-----END \\1-----");
    private static final String PBES2_OID = "1.2.840.113549.1.5.13";
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448", "DSA");
    private static final char[] STORE_PASSWORD = new char[0];

    private KeyFiles() {
    }

    /** The key manager of {@code certPath}'s chain and {@code keyPath}'s key ({@code keyPassword} blank: plain). */
    public static KeyManagerFactory keyManagers(String certPath, String keyPath, String keyPassword)
        throws IOException, GeneralSecurityException {
        return keyManagers(privateKey(keyPath, keyPassword), certificates(certPath));
    }

    static KeyManagerFactory keyManagers(PrivateKey key, Certificate[] chain) throws GeneralSecurityException,
        IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("key", key, STORE_PASSWORD, chain);
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(store, STORE_PASSWORD);
        return factory;
    }

    /** Every certificate in the PEM file, leaf first. */
    public static Certificate[] certificates(String certPath) throws IOException, GeneralSecurityException {
        byte[] pem = Files.readAllBytes(Path.of(certPath));
        Certificate[] chain = CertificateFactory.getInstance("X.509")
            .generateCertificates(new ByteArrayInputStream(pem)).toArray(Certificate[]::new);
        if (chain.length == 0) {
            throw new GeneralSecurityException("no certificate in " + certPath);
        }
        return chain;
    }

    /** The key in the PEM file; an encrypted one needs {@code keyPassword}. */
    public static PrivateKey privateKey(String keyPath, String keyPassword) throws IOException,
        GeneralSecurityException {
        String text = Files.readString(Path.of(keyPath), StandardCharsets.US_ASCII);
        Matcher block = PEM_BLOCK.matcher(text);
        while (block.find()) {
            byte[] der = Base64.getMimeDecoder().decode(block.group(2));
            switch (block.group(1)) {
                case "PRIVATE KEY":
                    return pkcs8(der, keyPath);
                case "ENCRYPTED PRIVATE KEY":
                    if (keyPassword == null || keyPassword.isEmpty()) {
                        throw new GeneralSecurityException(keyPath + " is encrypted: set its keyPassword");
                    }
                    return pkcs8(decrypt(der, keyPassword), keyPath);
                default:
                    // e.g. "RSA PRIVATE KEY" (PKCS#1): convert with openssl pkcs8 -topk8
                    if (block.group(1).endsWith("PRIVATE KEY")) {
                        throw new GeneralSecurityException(keyPath + " holds a " + block.group(1)
                            + "; convert it to PKCS#8 (openssl pkcs8 -topk8)");
                    }
            }
        }
        throw new GeneralSecurityException("no PKCS#8 private key in " + keyPath);
    }

    private static byte[] decrypt(byte[] der, String keyPassword) throws IOException, GeneralSecurityException {
        EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(der);
        String algorithm = info.getAlgName();
        if (algorithm.equals("PBES2") || algorithm.equals(PBES2_OID)) {
            algorithm = info.getAlgParameters().toString();   // e.g. PBEWithHmacSHA256AndAES_256
        }
        SecretKeyFactory factory = SecretKeyFactory.getInstance(algorithm);
        Cipher cipher = Cipher.getInstance(algorithm);
        cipher.init(Cipher.DECRYPT_MODE, factory.generateSecret(new PBEKeySpec(keyPassword.toCharArray())),
            info.getAlgParameters());
        try {
            return info.getKeySpec(cipher).getEncoded();
        } catch (InvalidKeySpecException e) {
            throw new GeneralSecurityException("cannot decrypt the key: wrong keyPassword?", e);
        }
    }

    private static PrivateKey pkcs8(byte[] der, String keyPath) throws GeneralSecurityException {
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (InvalidKeySpecException | java.security.NoSuchAlgorithmException notThisOne) {
                // try the next algorithm
            }
        }
        throw new GeneralSecurityException("the key in " + keyPath + " is none of " + KEY_ALGORITHMS);
    }
}
