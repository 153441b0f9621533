/**
 * A trailing throttle: the first call starts a wait of `ms`, further calls during it are folded into
 * it, and `run` happens once when it ends. So a burst of changes costs one run, at most one per `ms`,
 * and the last change is never lost. `cancel` drops a pending run (the page went away).
 */
export function trailingThrottle(run: () => void, ms: number): { call: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call: () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        run();
      }, ms);
    },
    cancel: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
