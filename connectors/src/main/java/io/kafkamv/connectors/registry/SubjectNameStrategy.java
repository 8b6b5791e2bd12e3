package io.kafkamv.connectors.registry;

import java.util.Locale;

/** How a topic's records name their subject in the registry, as Confluent's serializers do. */
public enum SubjectNameStrategy {
    /** {@code <topic>-value} (or {@code -key}): one schema history per topic. The default. */
    TOPIC_NAME,
    /** {@code <record full name>}: one history per record type, shared by topics. */
    RECORD_NAME;

    public String subject(String topic, String recordFullName, boolean key) {
        return this == TOPIC_NAME ? topic + (key ? "-key" : "-value") : recordFullName;
    }

    /** The strategy a {@code subject.name.strategy} option names: {@code topic} or {@code record}. */
    public static SubjectNameStrategy of(String name) {
        return switch (name.toLowerCase(Locale.ROOT).replace("_", "").replace("strategy", "").replace("name", "")) {
            case "topic" -> TOPIC_NAME;
            case "record" -> RECORD_NAME;
            default -> throw new IllegalArgumentException("subject name strategy '" + name
                + "' is not supported; use 'topic' or 'record'");
        };
    }
}
