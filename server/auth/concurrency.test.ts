import { createConcurrencyLimit } from './concurrency.ts';

test('runs at most the limit at once, every task in its turn, failures included', async () => {
  const run = createConcurrencyLimit(2);
  let active = 0;
  let mostActive = 0;
  const started: number[] = [];
  const task = (index: number) => async () => {
    started.push(index);
    active++;
    mostActive = Math.max(mostActive, active);
    await new Promise((resolve) => setTimeout(resolve, 5));
    active--;
    if (index === 3) throw new Error('task 3 fails');
    return index;
  };
  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5, 6].map((index) => run(task(index))));
  expect(mostActive).toBe(2);
  expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  expect(
    results.map((result) => (result.status === 'fulfilled' ? result.value : 'failed')),
  ).toEqual([0, 1, 2, 'failed', 4, 5, 6]);
  // A slot freed by a failure is not lost: two more still run side by side.
  mostActive = 0;
  await Promise.all([run(task(7)), run(task(8))]);
  expect(mostActive).toBe(2);
});
