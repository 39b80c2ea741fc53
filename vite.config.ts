import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 700 },
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
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/testing/setup.ts'],
          globals: true,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
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
          include: [
            'server/entities/*.test.ts',
            'server/documents/*.test.ts',
            'server/client-updates/*.test.ts',
            'server/http/openapi.test.ts',
            'server/auth/routes.test.ts',
            'server/seed/demo-api.test.ts',
            'server/security/headers.test.ts',
            'server/security/limits.test.ts',
            'server/security/bad-input.test.ts',
            'server/security/properties.test.ts',
          ],
          env: { KYC_TEST_MODE: 'gateway' },
          globals: true,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
