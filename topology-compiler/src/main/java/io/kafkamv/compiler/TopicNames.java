package io.kafkamv.compiler;

/**
 * The names of the topics kafka-mv makes for its objects: {@code kmv-<kind>-<name>-<suffix>}. SQL names
 * may hold quotes, spaces and any Unicode letter, Kafka topic names only ASCII letters, digits, '.',
 * '_' and '-' up to 249 characters: other characters become '_', and the suffix (which holds an id
 * unique in the cluster) keeps two names that look alike apart.
 */
public final class TopicNames {

    private static final int MAX_NAME_PART = 180;

    private TopicNames() {
    }

    public static String of(String kind, String name, String suffix) {
        StringBuilder safe = new StringBuilder(Math.min(name.length(), MAX_NAME_PART));
        for (int i = 0; i < name.length() && safe.length() < MAX_NAME_PART; i++) {
            char c = name.charAt(i);
            boolean allowed = c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-');
            safe.append(allowed ? c : '_');
        }
        return "kmv-" + kind + "-" + safe + "-" + suffix;
    }
}
