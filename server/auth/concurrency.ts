/**
 * Runs at most `limit` of the given tasks at once; the rest wait their turn in order. A finishing
 * task hands its slot straight to the next waiting one, so the limit holds at every moment.
 */
export function createConcurrencyLimit(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
