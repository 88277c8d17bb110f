package lockstep.coordinator.certs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Base64;

/** Writes certificates and PKCS#8 private keys as PEM; keys readable by their owner only; never over an existing file. */
public final class PemFiles {
    private PemFiles() {
    }

    public static void writeCertificate(Path file, X509Certificate cert) throws IOException {
        try {
            write(file, pem("CERTIFICATE", cert.getEncoded()), "rw-r--r--");
        } catch (CertificateEncodingException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** Java's encoding of a private key is PKCS#8, what gRPC's TLS credentials read. */
    public static void writeKey(Path file, PrivateKey key) throws IOException {
        write(file, pem("PRIVATE KEY", key.getEncoded()), "rw-------");
    }

    public static X509Certificate readCertificate(Path file) throws IOException {
        try (var in = Files.newInputStream(file)) {
            return (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (java.security.cert.CertificateException e) {
            throw new IOException(file + " is not a PEM certificate: " + e.getMessage(), e);
        }
    }

    /** A PKCS#8 PEM private key as {@link #writeKey} writes it (EC, as {@code lockstep certs} makes them). */
    public static PrivateKey readKey(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        int begin = text.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = text.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw new IOException(file + " is not a PKCS#8 PEM private key (no BEGIN/END PRIVATE KEY lines)");
        }
        try {
            byte[] der = Base64.getMimeDecoder().decode(text.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end));
            return java.security.KeyFactory.getInstance("EC").generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(der));
        } catch (IllegalArgumentException | java.security.GeneralSecurityException e) {
            throw new IOException(file + " is not an EC private key: " + e.getMessage(), e);
        }
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static void write(Path file, String text, String perms) throws IOException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(perms)));
        Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
    }
}
