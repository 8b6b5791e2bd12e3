package io.kafkamv.service.statement;

import java.util.Map;

import io.kafkamv.compiler.parser.Redaction;
import io.kafkamv.connectors.secret.SecretReferences;
import io.kafkamv.service.result.Notices;

/**
 * Tells the user when a CREATE keeps a password in the catalog as written: the job store topic holds it then, and
 * whoever may read that topic reads it. A reference to the secret keeps it out ({@link SecretReferences}).
 */
final class PlainSecrets {

    private PlainSecrets() {
    }

    static void notice(Map<String, String> options, Notices notices) {
        options.forEach((key, value) -> {
            if (Redaction.isSecret(key) && value != null && !value.isEmpty() && !SecretReferences.isReference(value)) {
                notices.notice("option " + key + " is kept in the catalog as written; to keep the secret out of it, name"
                    + " it instead: '${env:NAME}', '${file:/path/file.properties:key}' or '${directory:/path:file}'");
            }
        });
    }
}
