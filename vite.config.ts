import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';
import { routeChunkGroups, routeChunkPreload } from './vite-route-chunks.ts';

/**
 * `<file>.br` and `<file>.gz` beside each built script, style sheet and page over 1 KB, for the
 * server to send as they are (`preCompressed` in server/app.ts) instead of 3–4 times the bytes.
 */
const precompressed = compression({
  include: /\.(js|css|html|svg)$/,
  threshold: 1024,
  algorithms: [
    defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    defineAlgorithm('gzip', { level: 9 }),
  ],
});

/** Where the build's source maps go: beside dist/, never served (dist/ is what the server serves). */
const SOURCEMAP_DIR = 'dist-sourcemaps';

/**
 * Moves every `.map` the build wrote (the worker's included) out of dist/ into SOURCEMAP_DIR:
 * with `sourcemap: 'hidden'` no script names its map, so nothing public points at them.
 */
function sourceMapsOutOfDist(outDir: string): Plugin {
  return {
    name: 'kyc-desk:source-maps-out-of-dist',
    apply: 'build',
    closeBundle() {
      fs.rmSync(SOURCEMAP_DIR, { recursive: true, force: true });
      for (const entry of fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
        if (!entry.endsWith('.map')) continue;
        const target = path.join(SOURCEMAP_DIR, entry);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.renameSync(path.join(outDir, entry), target);
      }
    },
  };
}

/**
 * React Router's package exports name only its development build (dev warnings on) for every
 * condition; a production build resolves the production files beside it.
 */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/**
 * Vitest's default, one worker per core but one, is a single worker on CI's two cores. The server
 * files mostly wait (PostgreSQL, sockets, child processes), so they run two at a time at least;
 * the console's jsdom files are CPU-bound with 5 s timeouts, and keep the default.
 */
const serverTestWorkers = {
  // A project's own count wins over `--maxWorkers`: KYC_SERVER_TEST_WORKERS=1 runs them one at a time.
  maxWorkers:
    Number(process.env.KYC_SERVER_TEST_WORKERS) || Math.max(2, os.availableParallelism() - 1),
  // Projects with their own worker count run as a group of their own: after the console's.
  sequence: { groupOrder: 1 },
};

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

export default defineConfig(({ command }) => ({
  plugins: [react(), precompressed, sourceMapsOutOfDist('dist'), routeChunkPreload()],
  resolve: {
    alias:
      command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  build: {
    outDir: 'dist',
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 700,
    rolldownOptions: { output: { codeSplitting: { groups: routeChunkGroups() } } },
  },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/healthz': apiTarget },
  },
  test: {
    // Vitest 4 runs every project; the console's tests use jsdom, the server's a real Node + SQLite.
    projects: [
      {
        extends: true,
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'contract/**/*.test.ts'],
          setupFiles: ['src/testing/setup.ts'],
          globals: true,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          ...serverTestWorkers,
          include: ['server/**/*.test.ts'],
          globals: true,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The server tests again on PostgreSQL: one throwaway server per run (or DATABASE_URL),
        // a database per test server (server/testing/postgres-global-setup.ts).
        test: {
          name: 'server-postgres',
          environment: 'node',
          ...serverTestWorkers,
          include: ['server/**/*.test.ts'],
          exclude: [
            // SQLite's own files, pragmas and FTS5 plans; their PostgreSQL counterparts are below.
            'server/db/migrations.test.ts',
            'server/entities/company-name-search.test.ts',
            'server/entities/search-fallback.test.ts',
            'server/entities/search-plans.test.ts',
            // No database: configuration, helpers and the gateway's forwarding in front of an upstream.
            'server/gateway/gateway.test.ts',
            'server/launch.test.ts',
            'server/http/errors.test.ts',
            'server/documents/document-json.test.ts',
            // SQLite whatever the project: the seed CLI, the demo set and a server process on a DATA_DIR.
            'server/seed/cli.test.ts',
            'server/seed/demo.test.ts',
            'server/seed/demo-password.test.ts',
          ],
          env: { KYC_TEST_ENGINE: 'postgres' },
          globalSetup: ['server/testing/postgres-global-setup.ts'],
          globals: true,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The API tests again, through a gateway whose upstream is the embedded server (docs/gateway.md).
        test: {
          name: 'server-gateway',
          environment: 'node',
          ...serverTestWorkers,
          include: [
            'server/entities/*.test.ts',
            'server/documents/*.test.ts',
            'server/client-updates/*.test.ts',
            'server/notes/*.test.ts',
            'server/assignment/assignment-modes.test.ts',
            'server/audit/entity-activity.test.ts',
            'server/audit/refusal-matrix.test.ts',
            'server/http/openapi.test.ts',
            'server/auth/routes.test.ts',
            'server/auth/role-matrix.test.ts',
            'server/auth/sign-out.test.ts',
            'server/seed/demo-api.test.ts',
            'server/security/headers.test.ts',
            'server/security/limits.test.ts',
            'server/security/bad-input.test.ts',
            'server/security/properties.test.ts',
            'server/http/framework-errors.test.ts',
            'server/http/head-requests.test.ts',
          ],
          env: { KYC_TEST_MODE: 'gateway' },
          globals: true,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
}));
