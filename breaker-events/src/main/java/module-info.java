/**
 * Seeing what breakers do: {@link dev.breaker.events.EventBus} (a bus whose subscribers cannot
 * hurt the callers that publish), {@code Slf4jEventLogger} (transitions and
 * summarised rejections through SLF4J) and {@code JfrEventRecorder} (JDK Flight
 * Recorder events). Everything here is a {@link dev.breaker.BreakerListener} or a
 * {@link dev.breaker.CallObserver}, attached to a breaker or a registry like any other.
 */
module dev.breaker.events {
    requires transitive dev.breaker;
    requires org.slf4j;
    requires jdk.jfr;

    exports dev.breaker.events;
}
