/**
 * Seeing what breakers do: {@link dev.breaker.events.EventBus} (a bus whose subscribers cannot
 * hurt the callers that publish), {@link dev.breaker.events.Slf4jEventLogger} (transitions and
 * summarised rejections through SLF4J) and {@link dev.breaker.events.JfrEventRecorder} (JDK Flight
 * Recorder events). Everything here is a {@link dev.breaker.BreakerListener} or a
 * {@link dev.breaker.CallObserver}, attached to a breaker or a registry like any other.
 */
module dev.breaker.events {
    requires transitive dev.breaker;
    requires transitive org.slf4j; // Slf4jEventLogger.Builder.logger(org.slf4j.Logger)
    requires jdk.jfr;

    exports dev.breaker.events;
}
