/**
 * Node's arguments for the built server, exactly as `npm start` passes them (a unit test keeps the
 * two equal), so the e2e suite and the bench, which import them, run what users run. A 4 MB
 * young-generation semi-space (Node's default is 16 MB) held about 25 MB less in the bench.
 * Without V8's memory reducer: a process idle for 8 s soon after its start had its heap limit cut
 * to just above its 26 MB of live data, and then ran a full GC every 80 ms under load for more
 * than 30 s (a gateway list page 2.2-2.9 ms of CPU instead of 0.7-0.9).
 * The old generation grows to twice its live data before the next full GC, not V8's own choice
 * of up to four times on a machine with this much memory: on PostgreSQL, where a request waits
 * on the pool across several round trips, its objects outlive scavenges, and the review queue
 * under load grew the heap from about 30 MB live to 160 MB (peak RSS 292-311 MB); twice holds it
 * under 90 MB, for about 1% of CPU in full GCs.
 */
export const BUILT_SERVER_ARGS: readonly string[] = [
  '--enable-source-maps',
  '--max-semi-space-size=4',
  '--no-memory-reducer',
  '--heap-growing-percent=100',
  'dist-server/main.mjs',
];

/**
 * The environment `npm start` sets for the built server (the same test keeps it equal). glibc
 * otherwise raises its mmap threshold after the first large free, so scrypt's 16 MB blocks and
 * page-sized buffers stay in per-thread arenas: peak RSS 325 → 231 MB in a sign-in and list probe.
 */
export const BUILT_SERVER_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '1048576',
};

/** The command line `npm start` runs after its build. */
export function builtServerCommand(): string {
  const env = Object.entries(BUILT_SERVER_ENV).map(([name, value]) => `${name}=${value}`);
  return [...env, 'node', ...BUILT_SERVER_ARGS].join(' ');
}
