package dev.breaker.tck;

/**
 * Which version of the contracts this jar holds. The contracts get stricter as the SPEC does;
 * when one changes what it demands of a plugin, {@link #CONTRACT} goes up by one and the release
 * notes say what changed, so an author whose build starts failing knows why.
 */
public final class TckVersion {

    /**
     * The contract version: 1, the first published contract (window rule and counts against an
     * oracle, exact concurrent counts, the breaker soak, provider module layout).
     */
    public static final int CONTRACT = 1;

    private TckVersion() {}
}
