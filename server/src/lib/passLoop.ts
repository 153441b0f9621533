/**
 * Runs a background pass (a sender's claim-and-send) when nudged or every `pollMs`, never two at
 * once: a nudge during a pass runs one more after it, so work queued meanwhile is not left waiting
 * for the next poll. A failing pass is handed to `onError` and the loop goes on.
 */
export function createPassLoop(pass: () => Promise<unknown>, onError: (error: unknown) => void) {
  // Read across awaits, so kept in an object: a pass in progress, a nudge during it, a stop.
  const state: { running?: Promise<void>; again: boolean; stopped: boolean } = { again: false, stopped: false };
  let timer: NodeJS.Timeout | undefined;
  // Functions, not fields: the compiler would take a field read before an await for its value after.
  const nudgedMeanwhile = () => state.again;
  const stopping = () => state.stopped;

  const nudge = () => {
    if (state.stopped) return;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = (async () => {
      do {
        state.again = false;
        await pass().catch(onError);
      } while (nudgedMeanwhile() && !stopping());
    })().finally(() => {
      state.running = undefined;
    });
  };

  return {
    nudge,
    /** The pass in progress, if any. */
    current: () => state.running,
    stopping,
    start(pollMs: number) {
      if (timer) return;
      timer = setInterval(nudge, pollMs);
      timer.unref();
      nudge();
    },
    /** No pass starts from now on; the one in progress is current() to wait for. */
    halt() {
      state.stopped = true;
      clearInterval(timer);
    },
  };
}
