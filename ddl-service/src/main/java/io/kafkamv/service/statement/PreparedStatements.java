package io.kafkamv.service.statement;

/** The statements a session's client prepared by name (the PostgreSQL protocol's Parse): DEALLOCATE drops them. */
public interface PreparedStatements {

    /** A door without named statements (REST). */
    PreparedStatements NONE = new PreparedStatements() {
        @Override
        public boolean deallocate(String name) {
            return false;
        }

        @Override
        public void deallocateAll() {
            // Nothing is prepared.
        }
    };

    /** Drops the statement; false when there is none of that name. */
    boolean deallocate(String name);

    void deallocateAll();
}
