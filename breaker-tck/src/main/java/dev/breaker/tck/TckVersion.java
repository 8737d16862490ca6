package dev.breaker.tck;

/**
 * Which version of the contracts this jar holds. The contracts get stricter as the SPEC does;
 * when one changes what it demands of a plugin, {@link #CONTRACT} goes up by one and the release
 * notes say what changed, so an author whose build starts failing knows why.
 */
public final class TckVersion {

    /**
     * The contract version.
     *
     * <ol>
     * <li>The first published contract: window rule and counts against an oracle, exact
     *     concurrent counts, the breaker soak, provider module layout.</li>
     * <li>Rate windows under racing writers ({@link RateWindowRaceContract}: no trip on a rate no
     *     order of the outcomes reached, no transient double count, counts at rest from some order
     *     of the outcomes), and {@code Window.recordAt} answering as {@code record} does.</li>
     * <li>A lone recording thread is answered exactly at every outcome while another thread
     *     reads the counts ({@link RateWindowRaceContract#aLoneRecorderIsExactWhileAnotherThreadReadsTheCounts}).</li>
     * <li>Half-open policies: the SPI now asks per round ({@code probes(k)},
     *     {@code decide(k, successes, failures)}) and has a calm period and a ramp-up;
     *     {@link HalfOpenPolicyContract} holds a policy to them (a round ends once every probe
     *     has reported, sane verdicts, stable calm period and ramp, exact admission through a
     *     breaker).</li>
     * <li>Listeners and call observers: {@link BreakerListenerContract} (every kind of event,
     *     a flood from many threads that does not hold them, a breaker that decides the same with
     *     the listener attached, racing observer calls).</li>
     * <li>A breaker's running totals count every call once, in its outcome, while threads record
     *     through the window and the breaker replaces it
     *     ({@link RateWindowRaceContract#theBreakersTotalsCountEveryCallOnceWhileItsWindowIsReplaced}):
     *     the project's rate windows now count the breaker's calls themselves.</li>
     * <li>A rate window is held to SPEC rule 8 as the kit computes it, not only to its author's
     *     oracle ({@link RateRuleContract}): thresholds taken as the decimals they are written as
     *     and compared exactly (55 failures of 100 trip 0.55), slow failures counted as slow, the
     *     minimum of calls, at or above the threshold; and a time window is held to time that
     *     moves ({@link TimeWindowContract}: old outcomes leave at most a bucket late, young ones
     *     stay, decisions on the young alone, across the ticker's wrap).</li>
     * <li>A rate window's lag under racing writers is held to the bound it documents
     *     ({@link RateWindowRaceContract#aTripUnderRacingWritersComesWithinTheDocumentedLag}): a
     *     window that lets outcomes wait now says how many per recording thread by overriding
     *     {@link RateWindowRaceContract#lagPerRecordingThread()} (and, if bad outcomes may wait
     *     less, {@link RateWindowRaceContract#badOutcomeLagPerRecordingThread()}), whose default,
     *     0, holds it to deciding every outcome as it is recorded; after 300 and after 30,000
     *     outcomes per thread alike.</li>
     * <li>Recording a healthy stream ({@code record} and {@code recordAt} in turn) allocates nothing once warm
     *     ({@link WindowContract#recordingAHealthyStreamAllocatesNothing}, SPEC rule 11 and the
     *     {@code Window} javadoc); a window that must allocate says so by overriding
     *     {@link WindowContract#recordAllocatesNothing()}.</li>
     * <li>Late outcomes, slow calls and virtual threads: a time window recorded by one thread
     *     takes an outcome whose reading is older than outcomes already recorded, while that
     *     reading is in the window, into its very next decision and its counts
     *     ({@link TimeWindowContract#aLateFailureIsInTheVeryNextDecision},
     *     {@link TimeWindowContract#aLateSuccessIsInTheVeryNextDecision}); threads recording a
     *     steady 40% of slow calls never trip a 50% slow-call threshold
     *     ({@link RateWindowRaceContract#steadyFortyPercentSlowCallsNeverTripFiftyPercent}): a
     *     subclass's {@link RateWindowRaceContract#subject} now takes a slow-call-rate threshold
     *     beside the failure-rate one; and ten thousand virtual threads invent no
     *     trip and lose no call
     *     ({@link RateWindowRaceContract#tenThousandVirtualThreadsInventNoTripAndLoseNoCall}, Java 21
     *     and later).</li>
     * </ol>
     */
    public static final int CONTRACT = 10;

    private TckVersion() {}
}
