/** The ring and its provider. Not exported. */
package dev.breaker.window.count.internal;
