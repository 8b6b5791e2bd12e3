package io.kafkamv.service.jobs;

/**
 * What one job's Kafka Streams instance on this instance holds and does: the figures for the object's
 * share of its partitions here. Summed over instances they give the whole object.
 *
 * @param rows               rows in its local store, counted at most every 30 s
 * @param lag                source records not yet processed by its local tasks
 * @param recordsPerSecond   records its stream thread processes per second
 * @param deadLetters        source records it could not read and routed to a dead-letter topic
 * @param evaluationErrors   values it could not compute for a row (an overflow, a division by zero), made null,
 *                           since this instance started the job
 */
public record LocalViewStats(long jobId, String object, long rows, long lag, double recordsPerSecond, long deadLetters,
                             long evaluationErrors, int streamThreads, boolean held) {
}
