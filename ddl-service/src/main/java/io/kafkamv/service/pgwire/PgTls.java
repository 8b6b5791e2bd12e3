package io.kafkamv.service.pgwire;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * TLS for the PostgreSQL endpoint, from the PEM files PostgreSQL itself and Kubernetes TLS secrets
 * use: a certificate chain and its unencrypted PKCS#8 private key. With {@code required}, a client
 * that does not ask for TLS is refused, as PostgreSQL's {@code hostssl} does.
 */
public final class PgTls {

    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SSLContext context;
    private final boolean required;

    private PgTls(SSLContext context, boolean required) {
        this.context = context;
        this.required = required;
    }

    public static PgTls fromPem(Path certificateChain, Path privateKey, boolean required) {
        try {
            List<? extends Certificate> chain;
            try (InputStream in = Files.newInputStream(certificateChain)) {
                chain = List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
            }
            if (chain.isEmpty()) {
                throw new IllegalArgumentException(certificateChain + " holds no PEM certificate");
            }
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("kafka-mv", readKey(privateKey), new char[0], chain.toArray(Certificate[]::new));
            KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            managers.init(keys, new char[0]);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(managers.getKeyManagers(), null, null);
            return new PgTls(context, required);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the PostgreSQL endpoint's TLS files", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use " + certificateChain + " and " + privateKey
                + " for TLS: " + e.getMessage(), e);
        }
    }

    boolean required() {
        return required;
    }

    /** Runs the server side of a TLS handshake over a connection that asked for it, within {@code timeoutMillis}. */
    Socket accept(Socket plain, int timeoutMillis) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain,
            plain.getInetAddress().getHostAddress(), plain.getPort(), true);
        socket.setUseClientMode(false);
        socket.setEnabledProtocols(PROTOCOLS);
        socket.setSoTimeout(timeoutMillis);
        socket.startHandshake();
        socket.setSoTimeout(0);
        return socket;
    }

    private static PrivateKey readKey(Path file) throws IOException, GeneralSecurityException {
        String pem = Files.readString(file, StandardCharsets.US_ASCII);
        if (pem.contains("-----BEGIN RSA PRIVATE KEY-----") || pem.contains("-----BEGIN EC PRIVATE KEY-----")) {
            throw new IllegalArgumentException(file + " holds a PKCS#1 or SEC1 key; kafka-mv reads PKCS#8 keys. "
                + "Convert it with: openssl pkcs8 -topk8 -nocrypt -in " + file + " -out " + file + ".pk8");
        }
        if (pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
            throw new IllegalArgumentException(file + " holds an encrypted key; give kafka-mv an unencrypted one "
                + "(openssl pkcs8 -topk8 -nocrypt -in " + file + " -out " + file + ".pk8) and protect the file instead");
        }
        int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
        int end = pem.indexOf("-----END PRIVATE KEY-----");
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException(file + " holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
        }
        byte[] der = Base64.getMimeDecoder().decode(pem.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end));
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        GeneralSecurityException last = null;
        for (String algorithm : List.of("RSA", "EC", "Ed25519")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                last = e;
            }
        }
        throw new IllegalArgumentException(file + " holds a private key of a kind TLS here cannot use (RSA, EC or "
            + "Ed25519 are)", last);
    }
}
