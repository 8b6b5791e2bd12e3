package io.kafkamv.compiler;

import io.kafkamv.compiler.error.CompileException;

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

    /**
     * Refuses a topic that is kafka-mv's own (the job store, which holds the catalog and its secrets; the topics of
     * tables, views and their changelogs, {@code kmv-...}) or Kafka's ({@code __consumer_offsets}, {@code _schemas}):
     * a source would let any SQL user read them, a sink write them.
     */
    public static void checkNotInternal(String topic, String what) {
        checkNotInternal(topic, what, false);
    }

    /**
     * As {@link #checkNotInternal(String, String)}; a source may read a source's dead-letter topic ({@code
     * kmv-source-<name>-dlq-<n>}): those are the user's own records that could not be read, with the reason in
     * a header, which is how one looks at them.
     */
    public static void checkNotInternal(String topic, String what, boolean deadLettersAllowed) {
        if (deadLettersAllowed && topic.matches("kmv-source-.+-dlq-[0-9]+")) {
            return;
        }
        if (topic.startsWith("_") || topic.startsWith("kmv-")) {
            throw new CompileException(CompileException.Category.FORBIDDEN, "topic \"" + topic
                + "\" belongs to kafka-mv or to Kafka itself: " + what, 0,
                "Topics whose names start with _ or kmv- are internal. Read kafka-mv's objects with SELECT.");
        }
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
