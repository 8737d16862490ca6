/**
 * Built-in providers and discovery machinery. Not exported: public only so that
 * {@link java.util.ServiceLoader} can instantiate the providers on both paths.
 */
package dev.breaker.internal;
