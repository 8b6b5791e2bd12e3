package io.kafkamv.jobstore;

/**
 * The keys of the job store's records: what kind of record each is and whose. Every record is the full
 * state of one thing under its key, so compaction keeps the latest and a tombstone deletes it.
 */
final class JobStoreKeys {

    static final String OBJECT = "object/";
    static final String JOB = "job/";
    /**
     * A cancel is its own record, not a status in the job's record: a job's record is written by
     * whoever runs it (progress, completion) and a cancel written just before a completion would be
     * overwritten by it. A cancel record stays until the job is cleaned up, so it wins in every order
     * and after compaction.
     */
    static final String CANCEL = "cancel/";
    /** ALTER's backfill rate limit, apart from the job's record for the same reason as a cancel. */
    static final String RATE = "rate/";
    /** ALTER ... SET PARALLELISM: the job's stream threads per instance, apart from the job's record as a rate is. */
    static final String PARALLELISM = "parallelism/";
    /** {@code source-rate/<source>}: ALTER SOURCE's SOURCE_RATE_LIMIT, records per second every job reads it at. */
    static final String SOURCE_RATE = "source-rate/";
    /** PAUSE JOB: present while the job is paused, apart from the job's record for the same reason as a cancel. */
    static final String PAUSE = "pause/";
    /** {@code setting/<name>}: a setting of the whole cluster, ALTER SYSTEM SET's. */
    static final String SETTING = "setting/";
    static final String STATEMENT = "statement/";
    /** A background statement's end, written in its run's transaction (so on the log's transactional side). */
    static final String END = "statement-end/";
    static final String PROGRESS = "statement-progress/";
    /** {@code statement-rows/<id>/<statement index>/<page>}: a page of a finished statement's result rows. */
    static final String ROWS = "statement-rows/";
    /** {@code instance/<id>}: an instance's latest heartbeat. */
    static final String INSTANCE = "instance/";
    /** The members of the shared Kafka Streams application ({@link SharedMembers}): one record for the cluster. */
    static final String SHARED_MEMBERS = "shared-members";
    /** Writing this key returns an offset no other writer gets: the source of job ids. */
    static final String JOB_ID_CLAIM = "job-id-claim";

    private JobStoreKeys() {
    }

    static String object(String name) {
        return OBJECT + name;
    }

    static String job(long id) {
        return JOB + id;
    }

    static String cancel(long id) {
        return CANCEL + id;
    }

    static String rate(long id) {
        return RATE + id;
    }

    static String parallelism(long id) {
        return PARALLELISM + id;
    }

    static String sourceRate(String source) {
        return SOURCE_RATE + source;
    }

    static String pause(long id) {
        return PAUSE + id;
    }

    static String setting(String name) {
        return SETTING + name;
    }

    static String statement(long id) {
        return STATEMENT + id;
    }

    static String end(long id) {
        return END + id;
    }

    static String progress(long id) {
        return PROGRESS + id;
    }

    static String instance(String id) {
        return INSTANCE + id;
    }

    static String rows(long id, int index, int page) {
        return ROWS + id + "/" + index + "/" + page;
    }

    /** The prefix of every page of a statement's result rows. */
    static String rowsOf(long id) {
        return ROWS + id + "/";
    }

    /** The id in a key of the form {@code <prefix><id>}. */
    static long id(String key, String prefix) {
        return Long.parseLong(key.substring(prefix.length()));
    }
}
