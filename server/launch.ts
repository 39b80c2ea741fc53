/**
 * Node's arguments for the built server, exactly as `npm start` passes them (a unit test keeps the
 * two equal), so the e2e suite and the bench, which import them, run what users run. A 4 MB
 * young-generation semi-space (Node's default is 16 MB) held about 25 MB less in the bench.
 */
export const BUILT_SERVER_ARGS: readonly string[] = [
  '--enable-source-maps',
  '--max-semi-space-size=4',
  'dist-server/main.mjs',
];
