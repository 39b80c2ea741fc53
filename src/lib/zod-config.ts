import { z } from 'zod';

// Zod's JIT probes `new Function` when a schema is built, which the Content-Security-Policy
// forbids (no 'unsafe-eval'); main.tsx imports this first, before any schema module.
z.config({ jitless: true });
