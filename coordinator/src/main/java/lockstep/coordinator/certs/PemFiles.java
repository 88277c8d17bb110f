package lockstep.coordinator.certs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.util.encoders.DecoderException;

/**
 * Writes certificates and PKCS#8 private keys as PEM; keys readable by their owner only; never over
 * an existing file.
 */
public final class PemFiles {
  private PemFiles() {}

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
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    } catch (CertificateException e) {
      throw new IOException(file + " is not a PEM certificate: " + e.getMessage(), e);
    }
  }

  /**
   * A PEM private key: PKCS#8 as {@link #writeKey} writes it, or OpenSSL's traditional form
   * (BouncyCastle's PEMParser reads both).
   */
  public static PrivateKey readKey(Path file) throws IOException {
    Object read;
    try (PEMParser parser =
        new PEMParser(Files.newBufferedReader(file, StandardCharsets.US_ASCII))) {
      read = parser.readObject();
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      if (read instanceof PrivateKeyInfo info) {
        return converter.getPrivateKey(info);
      }
      if (read instanceof PEMKeyPair pair) {
        return converter.getKeyPair(pair).getPrivate();
      }
    } catch (PEMException
        | DecoderException e) { // not a key's DER, or not base64, between BEGIN and END
      throw new IOException(file + " is not a PEM private key: " + e.getMessage(), e);
    }
    throw new IOException(
        file
            + " is not a PEM private key ("
            + (read == null ? "no PEM object" : "a " + read.getClass().getSimpleName())
            + ")");
  }

  static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static void write(Path file, String text, String perms) throws IOException {
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(perms)));
    Files.writeString(file, text, StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
  }
}
