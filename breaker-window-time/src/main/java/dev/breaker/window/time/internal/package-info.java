/** The bucket ring and its provider. Not exported. */
package dev.breaker.window.time.internal;
