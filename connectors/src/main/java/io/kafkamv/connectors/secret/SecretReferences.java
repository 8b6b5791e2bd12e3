package io.kafkamv.connectors.secret;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.provider.ConfigProvider;
import org.apache.kafka.common.config.provider.DirectoryConfigProvider;
import org.apache.kafka.common.config.provider.EnvVarConfigProvider;
import org.apache.kafka.common.config.provider.FileConfigProvider;

/**
 * An option may name a secret instead of holding it, in Kafka Connect's form: {@code ${env:NAME}} (an environment
 * variable), {@code ${file:/path/to/file.properties:key}} (a key of a properties file) or
 * {@code ${directory:/path/to/dir:file}} (a file's content, as Kubernetes mounts a Secret). The catalog keeps the
 * reference; each instance reads the secret when it connects, with Kafka's own config providers.
 */
public final class SecretReferences {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}:]+):[^}]*}");

    private static final ConfigTransformer TRANSFORMER = new ConfigTransformer(Map.of(
        "env", configured(new EnvVarConfigProvider()),
        "file", configured(new FileConfigProvider()),
        "directory", configured(new DirectoryConfigProvider())));

    private SecretReferences() {
    }

    private static ConfigProvider configured(ConfigProvider provider) {
        provider.configure(Map.of());
        return provider;
    }

    /** Whether the value names a secret. */
    public static boolean isReference(String value) {
        return value != null && REFERENCE.matcher(value).find();
    }

    /**
     * The value with each reference replaced by the secret it names; a value without one as it is.
     *
     * @throws UnreadableSecretException if a reference names a provider there is not, or a secret that cannot be
     *     read here; its message names the reference, never a secret
     */
    public static String resolve(String option, String value) {
        if (!isReference(value)) {
            return value;
        }
        String resolved;
        try {
            resolved = TRANSFORMER.transform(Map.of(option, value)).data().get(option);
        } catch (ConfigException e) {
            throw new UnreadableSecretException(option, value, e.getMessage());
        }
        Matcher left = REFERENCE.matcher(resolved);
        if (left.find()) {
            String provider = left.group(1);
            throw new UnreadableSecretException(option, left.group(), provider.equals("env") || provider.equals("file")
                || provider.equals("directory") ? "it is not set here" : "the providers are env, file and directory");
        }
        return resolved;
    }

    /** A secret reference that cannot be read: which option, which reference and why, without the secret. */
    public static final class UnreadableSecretException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UnreadableSecretException(String option, String reference, String reason) {
            super("the secret " + reference + " of option " + option + " cannot be read: " + reason);
        }
    }
}
