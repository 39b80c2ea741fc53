import type { Config } from './env.ts';
import type { Db } from './db/database.ts';

/** What route modules need, built once by createApp; tests build their own. */
export interface AppServices {
  config: Config;
  db: Db;
  /** HS256 key: JWT_SECRET, or a random secret kept in DATA_DIR. */
  signingKey: Uint8Array;
  /** Injected so tests can move time (token expiry, rate-limit windows). */
  now: () => Date;
}
