package io.vrmq.remoting.tls;

import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * A self-signed certificate and its key written as PEM files, the key plain PKCS#8 or encrypted as
 * {@code openssl pkcs8 -topk8 -v2 aes-256-cbc -v2prf hmacWithSHA256} writes it (PBES2). Test thread only.
 */
record TestKeyFiles(Path certPath, Path keyPath) {
    private static final String PBES2_AES = "PBEWithHmacSHA256AndAES_256";

    /** {@code password} null: a plain key. */
    static TestKeyFiles write(Path dir, String name, String password) throws Exception {
        SelfSignedCertificates.Issued issued = SelfSignedCertificates.create("localhost");
        Path cert = Files.writeString(dir.resolve(name + ".crt"), pem("CERTIFICATE",
            issued.certificate().getEncoded()));
        byte[] pkcs8 = issued.keys().getPrivate().getEncoded();
        String key = password == null ? pem("PRIVATE KEY", pkcs8)
            : pem("ENCRYPTED PRIVATE KEY", encrypt(pkcs8, password));
        return new TestKeyFiles(cert, Files.writeString(dir.resolve(name + ".key"), key));
    }

    private static byte[] encrypt(byte[] pkcs8, String password) throws Exception {
        byte[] salt = new byte[16];
        byte[] iv = new byte[16];
        new SecureRandom().nextBytes(salt);
        new SecureRandom().nextBytes(iv);
        Cipher cipher = Cipher.getInstance(PBES2_AES);
        cipher.init(Cipher.ENCRYPT_MODE, SecretKeyFactory.getInstance(PBES2_AES)
            .generateSecret(new PBEKeySpec(password.toCharArray())), new PBEParameterSpec(salt, 10_000,
            new IvParameterSpec(iv)));
        // Under the PBES2 name: the JDK knows no OID for the cipher's own name (PBEWithHmacSHA256AndAES_256).
        AlgorithmParameters pbes2 = AlgorithmParameters.getInstance("PBES2");
        pbes2.init(cipher.getParameters().getEncoded());
        return new EncryptedPrivateKeyInfo(pbes2, cipher.doFinal(pkcs8)).getEncoded();
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END " + type + "-----\n";
    }
}
