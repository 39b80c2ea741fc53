import type { Config } from './env.ts';
import type { Db } from './db/database.ts';
import type { DocumentKeys } from './documents/document-crypto.ts';

/** What route modules need, built once by createApp; tests build their own. */
export interface AppServices {
  config: Config;
  db: Db;
  /** HS256 key: JWT_SECRET, or a random secret kept in DATA_DIR. */
  signingKey: Uint8Array;
  /** Master keys of the documents' data keys (docs/security.md). */
  documentKeys: DocumentKeys;
  /** Injected so tests can move time (token expiry, rate-limit windows). */
  now: () => Date;
}
