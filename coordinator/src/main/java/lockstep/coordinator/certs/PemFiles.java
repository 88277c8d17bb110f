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
