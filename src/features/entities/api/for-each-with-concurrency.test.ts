import { forEachWithConcurrency } from './for-each-with-concurrency.ts';

/** A task the test finishes by hand, so concurrency is observed without timers. */
function manualTasks() {
  const started: number[] = [];
  const finishers = new Map<number, () => void>();
  let running = 0;
  let maxRunning = 0;
  const worker = (item: number) => {
    started.push(item);
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    return new Promise<void>((resolve) => {
      finishers.set(item, () => {
        running -= 1;
        resolve();
      });
    });
  };
  const finish = async (item: number) => {
    const done = finishers.get(item);
    if (!done) throw new Error(`item ${item} has not started`);
    done();
    // Let the lane pick up its next item.
    await Promise.resolve();
    await Promise.resolve();
  };
  return { started, worker, finish, maxRunning: () => maxRunning };
}

test('never runs more than the limit and starts items in order as lanes free up', async () => {
  const tasks = manualTasks();
  const items = [0, 1, 2, 3, 4, 5, 6];
  const run = forEachWithConcurrency(items, 3, tasks.worker);
  expect(tasks.started).toEqual([0, 1, 2]);
  await tasks.finish(1);
  expect(tasks.started).toEqual([0, 1, 2, 3]);
  await tasks.finish(0);
  await tasks.finish(3);
  expect(tasks.started).toEqual([0, 1, 2, 3, 4, 5]);
  for (const item of [2, 4, 5]) await tasks.finish(item);
  expect(tasks.started).toEqual(items);
  await tasks.finish(6);
  await run;
  expect(tasks.maxRunning()).toBe(3);
});

test('starts nothing new once aborted', async () => {
  const tasks = manualTasks();
  const controller = new AbortController();
  const run = forEachWithConcurrency([0, 1, 2, 3], 2, tasks.worker, controller.signal);
  controller.abort();
  await tasks.finish(0);
  await tasks.finish(1);
  await run;
  expect(tasks.started).toEqual([0, 1]);
});

test('handles fewer items than the limit, and none', async () => {
  const seen: string[] = [];
  await forEachWithConcurrency(['a', 'b'], 4, (item) => {
    seen.push(item);
    return Promise.resolve();
  });
  expect(seen).toEqual(['a', 'b']);
  await expect(forEachWithConcurrency([], 4, () => Promise.resolve())).resolves.toBeUndefined();
});

test('rejects a limit below one', async () => {
  await expect(forEachWithConcurrency([1], 0, () => Promise.resolve())).rejects.toThrow(RangeError);
});
