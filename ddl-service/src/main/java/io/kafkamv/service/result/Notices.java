package io.kafkamv.service.result;

/** Where a statement's progress messages go while it runs: NoticeResponse in pgwire. */
@FunctionalInterface
public interface Notices {

    Notices NONE = message -> { };

    void notice(String message);
}
