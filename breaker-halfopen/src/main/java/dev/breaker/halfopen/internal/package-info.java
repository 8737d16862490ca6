/** The exponential policy and its provider; not exported. */
package dev.breaker.halfopen.internal;
