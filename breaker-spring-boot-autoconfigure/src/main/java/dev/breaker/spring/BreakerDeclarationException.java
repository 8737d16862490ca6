package dev.breaker.spring;

/**
 * A {@link Breaker} annotation that cannot work as written: a fallback method that is missing or
 * does not fit, a method a proxy cannot intercept, a return type the breaker cannot judge, or a
 * bean with such methods that Spring did not proxy. Thrown while the bean is made, so the
 * application does not start; the message names the method and says what is expected.
 */
public class BreakerDeclarationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * Describes the problem.
     *
     * @param message names the method and what is expected
     */
    public BreakerDeclarationException(String message) {
        super(message);
    }
}
