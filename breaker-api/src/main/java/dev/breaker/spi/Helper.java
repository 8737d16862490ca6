package dev.breaker.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a type of this package that is a helper for provider authors rather than a promise: it
 * saves work (parsing settings, rate arithmetic, a lock-free failure streak) and is used by the
 * project's own modules, but its shape may change in any release. Types without this mark are the
 * service provider interfaces proper, kept compatible. A test keeps every public type of the
 * package either unmarked and listed as promised, or marked.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Helper {}
