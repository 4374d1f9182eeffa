/**
 * A wait of `ms`, ended by `signal` at once with its reason, its timer cleared. The timer is not
 * unref'd: a call waiting between tries holds the process until it settles, as its fetch does.
 */
export declare function sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
/**
 * `work`, or the signal's reason as soon as it aborts: a fetch that does not heed its signal
 * holds the call no longer. Given the try's own signal, one listener a try.
 */
export declare function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T>;
/**
 * A try's signal: aborted by its own timer at `timeoutMs`, with a TimeoutError as fetch's own
 * timeouts give, or with the call's `signal`, its reason kept. `end` clears the timer and drops the
 * hold on the call's signal: a call leaves no timer behind, however many tries it made (an
 * AbortSignal.timeout's timer runs its length whatever happens). Combined by hand (AbortSignal.any
 * needs Node 20.3). The timer is not unref'd: a try whose fetch keeps nothing alive (a `fetch`
 * option's own) still times out, the process held till then.
 */
export declare function trySignal(timeoutMs: number, signal: AbortSignal | undefined): {
    signal: AbortSignal;
    end: () => void;
};
