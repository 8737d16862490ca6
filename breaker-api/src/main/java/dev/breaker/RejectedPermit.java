package dev.breaker;

/** The answer to a rejected request: one constant per rejecting state, so rejecting allocates nothing. */
enum RejectedPermit implements Permit {
    OPEN(State.OPEN),
    HALF_OPEN(State.HALF_OPEN),
    ISOLATED(State.ISOLATED),
    /** CLOSED, ramping up after recovery: this request was shed (SPEC rule 16). */
    RAMPING(State.CLOSED);

    final State state;

    RejectedPermit(State state) {
        this.state = state;
    }

    @Override
    public boolean granted() {
        return false;
    }

    @Override
    public long generation() {
        return -1;
    }

    @Override
    public void onSuccess(long durationNanos) {
        throw notGranted();
    }

    @Override
    public void onFailure(long durationNanos, Throwable failure) {
        throw notGranted();
    }

    @Override
    public void onResult(Object result, Throwable failure, long durationNanos) {
        throw notGranted();
    }

    @Override
    public void release() {
        throw notGranted();
    }

    private IllegalStateException notGranted() {
        return new IllegalStateException(
                "this permit was not granted (the breaker was " + state + "); there is no outcome to report");
    }

    @Override
    public String toString() {
        return this == RAMPING ? "Permit[rejected, CLOSED, ramping up]" : "Permit[rejected, " + state + "]";
    }
}
