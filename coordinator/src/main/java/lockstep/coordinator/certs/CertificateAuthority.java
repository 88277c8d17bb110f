package lockstep.coordinator.certs;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A small CA for one Lockstep cluster: EC P-256 keys, SHA-256 ECDSA signatures. It issues agent
 * (server) certificates whose subject alternative names are the node's name and address host, and
 * coordinator (client) certificates. Used by {@code lockstep certs}.
 */
public final class CertificateAuthority {
  static final Duration CA_VALIDITY = Duration.ofDays(3650);
  static final Duration LEAF_VALIDITY = Duration.ofDays(825);
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final KeyPair keys;
  private final X509Certificate certificate;

  private CertificateAuthority(KeyPair keys, X509Certificate certificate) {
    this.keys = keys;
    this.certificate = certificate;
  }

  /** A key pair and certificate. */
  public record Issued(KeyPair keys, X509Certificate certificate) {}

  public static CertificateAuthority create(String name) {
    KeyPair keys = newKeys();
    X500Name subject = name(name);
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder b =
          certificate(subject, subject, keys, CA_VALIDITY)
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
              .addExtension(
                  Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  ext.createSubjectKeyIdentifier(keys.getPublic()));
      return new CertificateAuthority(keys, sign(b, keys));
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("cannot make the CA certificate: " + e.getMessage(), e);
    }
  }

  /** An existing CA (its certificate and private key), to issue more certificates from it. */
  public static CertificateAuthority of(X509Certificate certificate, PrivateKey key) {
    if (certificate.getBasicConstraints() < 0) {
      throw new IllegalArgumentException(
          certificate.getSubjectX500Principal() + " is not a CA certificate");
    }
    if (!"EC".equals(key.getAlgorithm())) {
      throw new IllegalArgumentException(
          "the CA key is "
              + key.getAlgorithm()
              + ", not EC as `lockstep certs` makes it (it signs with SHA256withECDSA)");
    }
    if (!signsFor(key, certificate)) {
      throw new IllegalArgumentException(
          "the CA key is not the key of "
              + certificate.getSubjectX500Principal()
              + ": what it signed would not verify");
    }
    return new CertificateAuthority(new KeyPair(certificate.getPublicKey(), key), certificate);
  }

  /**
   * Whether {@code key} is the private half of {@code certificate}'s public key: a signature by one
   * verifies with the other.
   */
  private static boolean signsFor(PrivateKey key, X509Certificate certificate) {
    try {
      byte[] challenge = new byte[32];
      new SecureRandom().nextBytes(challenge);
      Signature sign = Signature.getInstance("SHA256withECDSA");
      sign.initSign(key);
      sign.update(challenge);
      Signature verify = Signature.getInstance("SHA256withECDSA");
      verify.initVerify(certificate.getPublicKey());
      verify.update(challenge);
      return verify.verify(sign.sign());
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  public X509Certificate certificate() {
    return certificate;
  }

  public KeyPair keys() {
    return keys;
  }

  /** An agent certificate (TLS server) for {@code hosts}: DNS names and IP literals. */
  public Issued agent(String commonName, List<String> hosts) {
    List<GeneralName> sans = new ArrayList<>();
    for (String h : hosts) {
      GeneralName n =
          isIpLiteral(h)
              ? new GeneralName(GeneralName.iPAddress, h)
              : new GeneralName(GeneralName.dNSName, h);
      if (!sans.contains(n)) {
        sans.add(n);
      }
    }
    return issue(commonName, KeyPurposeId.id_kp_serverAuth, sans);
  }

  /**
   * A coordinator certificate (TLS client); its subject names the owner of the runs it prepares.
   */
  public Issued coordinator(String commonName) {
    return issue(commonName, KeyPurposeId.id_kp_clientAuth, List.of());
  }

  private Issued issue(String commonName, KeyPurposeId purpose, List<GeneralName> sans) {
    KeyPair leaf = newKeys();
    X500Name issuer = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder b =
          certificate(issuer, name(commonName), leaf, LEAF_VALIDITY)
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(
                  Extension.keyUsage,
                  true,
                  new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
              .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose))
              .addExtension(
                  Extension.authorityKeyIdentifier,
                  false,
                  ext.createAuthorityKeyIdentifier(certificate))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  ext.createSubjectKeyIdentifier(leaf.getPublic()));
      if (!sans.isEmpty()) {
        b.addExtension(
            Extension.subjectAlternativeName,
            false,
            new GeneralNames(sans.toArray(GeneralName[]::new)));
      }
      return new Issued(leaf, sign(b, keys));
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException(
          "cannot issue a certificate for " + commonName + ": " + e.getMessage(), e);
    }
  }

  static boolean isIpLiteral(String host) {
    if (IPV4.matcher(host).matches() || host.contains(":")) {
      try {
        InetAddress.getByName(host); // a literal: no lookup
        return true;
      } catch (UnknownHostException e) {
        return false;
      }
    }
    return false;
  }

  private static X500Name name(String commonName) {
    return new X500NameBuilder(BCStyle.INSTANCE)
        .addRDN(BCStyle.O, "Lockstep")
        .addRDN(BCStyle.CN, commonName)
        .build();
  }

  /**
   * A certificate of {@code subjectKeys}' public key, valid from five minutes ago (clocks differ a
   * little) for {@code validity}, with a random serial.
   */
  private static X509v3CertificateBuilder certificate(
      X500Name issuer, X500Name subject, KeyPair subjectKeys, Duration validity) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        serial(),
        Date.from(now.minusSeconds(300)),
        Date.from(now.plus(validity)),
        subject,
        subjectKeys.getPublic());
  }

  private static BigInteger serial() {
    return new BigInteger(127, RANDOM).add(BigInteger.ONE);
  }

  private static KeyPair newKeys() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("EC P-256 keys are not available: " + e.getMessage(), e);
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(
              b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e.getMessage(), e);
    }
  }
}
