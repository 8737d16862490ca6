/**
 * Contracts for authors of windows and other plugins, as abstract JUnit Jupiter and jqwik test
 * classes to extend in your own tests:
 *
 * <ul>
 * <li>{@link dev.breaker.tck.WindowContract}: a window against your own naive oracle on random
 *     sequences, its counts, and exact counts after concurrent writers;</li>
 * <li>{@link dev.breaker.tck.RateRuleContract}: a rate window's answers and counts against SPEC
 *     rule 8 as the kit computes it (not your oracle), in exact decimals, slow failures included;</li>
 * <li>{@link dev.breaker.tck.TimeWindowContract}: a time window while time moves, across the
 *     ticker's wrap;</li>
 * <li>{@link dev.breaker.tck.RateWindowRaceContract}: a rate window under racing writers (SPEC
 *     rule 8: lag is allowed, invention is not, no outcome is lost);</li>
 * <li>{@link dev.breaker.tck.BreakerSoak}: a breaker with your window hammered by many threads
 *     while time moves, with the state machine's invariants checked throughout;</li>
 * <li>{@link dev.breaker.tck.ProviderModuleContract}: your module's descriptor and its
 *     {@code META-INF/services} files agree, for the module path and the class path.</li>
 * </ul>
 *
 * <p>Add {@code dev.breaker:breaker-tck} with test scope; it brings JUnit Jupiter and jqwik. No
 * {@code --add-opens} is needed: this module is open, so the test engines may run the inherited
 * test methods on either path. {@link dev.breaker.tck.TckVersion} says which contract you run.
 */
package dev.breaker.tck;
