import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/database.ts';
import { ensurePrivateDirectory, restrictFile } from '../db/data-dir.ts';
import { rebuildListRecords } from '../entities/read-model/list-records.ts';
import type { Config } from '../env.ts';
import {
  describeKeys,
  documentKeysOf,
  DocumentKeyError,
  masterKeyOf,
  masterKeyWithId,
  rewrapDataKey,
  type DocumentKeys,
} from './document-crypto.ts';
import { documentsRepository } from './repository.ts';

/** The embedded default's master key, beside the database: written once, 0600. */
export const KEY_FILE_NAME = 'document-key';

/** Documents sealed per transaction at start-up: up to 10 MB each, so the write lock is brief. */
const SEAL_BATCH = 20;
/** Data keys re-wrapped per transaction: small rows, and servers keep writing in between. */
const REWRAP_BATCH = 200;

export interface KeyLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * DOCUMENT_KEY (and DOCUMENT_KEY_PREVIOUS); without it, on SQLite only, the key file in DATA_DIR,
 * generated on first use. PostgreSQL needs DOCUMENT_KEY: every instance must hold the same key,
 * and the database must never hold it.
 */
export function loadDocumentKeys(config: Config, log: KeyLog): DocumentKeys {
  const previous =
    config.documentKeyPrevious && masterKeyOf(config.documentKeyPrevious, 'DOCUMENT_KEY_PREVIOUS');
  if (config.documentKey) {
    return documentKeysOf(masterKeyOf(config.documentKey, 'DOCUMENT_KEY'), previous);
  }
  if (config.databaseUrl !== undefined) {
    throw new Error(
      'Configuration error: DOCUMENT_KEY must be set when DATABASE_URL is set: the same 32 random bytes in base64 on every instance, as openssl rand -base64 32 prints them (after db:copy-to-postgres, the content of DATA_DIR/document-key). See docs/deployment.md.',
    );
  }
  ensurePrivateDirectory(config.dataDir);
  const file = path.join(config.dataDir, KEY_FILE_NAME);
  const { key, created } = readOrCreateKeyFile(file);
  log.warn(
    `${created ? 'Generated the document key' : 'Documents are encrypted with the key'} in ${file}, next to the database: anyone who copies both can read every document. In production set DOCUMENT_KEY (docs/security.md).`,
  );
  return documentKeysOf(masterKeyOf(key, `the key file ${file}`), previous);
}

function readOrCreateKeyFile(file: string): { key: Buffer; created: boolean } {
  if (!fs.existsSync(file)) {
    // Written whole under a temporary name, then linked: a second process starting at the same
    // moment either wins the link or reads the winner's complete file.
    const partial = `${file}.${crypto.randomUUID()}.partial`;
    fs.writeFileSync(partial, `${crypto.randomBytes(32).toString('base64')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
    try {
      fs.linkSync(partial, file);
      return { key: readKeyFile(file), created: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(partial, { force: true });
    }
  }
  restrictFile(file);
  return { key: readKeyFile(file), created: false };
}

function readKeyFile(file: string): Buffer {
  const text = fs.readFileSync(file, 'utf8').trim();
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) {
    throw new Error(
      `${file} must hold 32 bytes in base64, as openssl rand -base64 32 prints them; it was changed or damaged.`,
    );
  }
  return Buffer.from(text, 'base64');
}

/**
 * Start-up: refuses a master key that does not match the stored documents (one row is checked),
 * then seals any documents still stored in the clear (from before 0010), in batches, each in its
 * own transaction so instances starting together share the work.
 */
export async function prepareDocumentKeys(db: Db, keys: DocumentKeys, log: KeyLog): Promise<void> {
  const documents = documentsRepository(db);
  const storedKeyId = await documents.anyKeyId();
  if (storedKeyId !== undefined) {
    try {
      masterKeyWithId(keys, storedKeyId, 'a stored document');
    } catch (error) {
      if (!(error instanceof DocumentKeyError)) throw error;
      throw new Error(
        `${error.message} Start with the key they were encrypted with (during a rotation, as DOCUMENT_KEY_PREVIOUS); see docs/deployment.md.`,
        { cause: error },
      );
    }
  }
  await sealDocumentsInTheClear(db, keys, log);
}

/**
 * A changed document drops its entity's list record (migration 0013's triggers), and every entity's
 * list entry is then built on each read: after changing `changed` documents, store them again.
 */
async function restoreListRecords(db: Db, changed: number): Promise<void> {
  if (changed > 0) await rebuildListRecords(db);
}

/** Encrypts every document stored in the clear; returns how many this process sealed. */
export async function sealDocumentsInTheClear(
  db: Db,
  keys: DocumentKeys,
  log: KeyLog,
): Promise<number> {
  const documents = documentsRepository(db);
  const total = await documents.countInTheClear();
  if (total === 0) return 0;
  log.info(`Encrypting ${String(total)} documents stored in the clear…`);
  let sealed = 0;
  const { logEmptied } = await documents.erasingReplacedBytes(async () => {
    for (;;) {
      const ids = await documents.idsInTheClear(SEAL_BATCH);
      if (ids.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const id of ids) {
          if (await documentsRepository(trx).seal(id, keys)) sealed += 1;
        }
      });
      log.info(`Encrypted ${String(sealed)} of ${String(total)} documents.`);
    }
  });
  if (!logEmptied) {
    log.warn(
      'Could not empty the write-ahead log: the bytes replaced may stay in kyc-desk.sqlite-wal until its next checkpoint.',
    );
  }
  await restoreListRecords(db, sealed);
  return sealed;
}

export interface RotationReport {
  keyId: string;
  /** Data keys re-wrapped under the current key by this run. */
  rewrapped: number;
  /** Documents this run found in the clear and sealed. */
  sealed: number;
  /** Sealed documents per key id afterwards. */
  byKeyId: { keyId: string; documents: number }[];
}

/**
 * Re-wraps every data key not under the current master key (it must be DOCUMENT_KEY_PREVIOUS)
 * under it, in batches; the documents' bytes are not touched. Servers keep reading throughout,
 * provided they hold both keys (docs/deployment.md).
 */
export async function rotateDocumentKeys(
  db: Db,
  keys: DocumentKeys,
  log: KeyLog,
): Promise<RotationReport> {
  const documents = documentsRepository(db);
  const unknown = (await documents.countByKeyId()).filter(
    ({ keyId }) => keyId !== keys.current.id && keyId !== keys.previous?.id,
  );
  if (unknown.length > 0) {
    const list = unknown.map(({ keyId, documents: n }) => `${String(n)} under ${keyId}`).join(', ');
    throw new Error(
      `The document key does not match the key the documents were encrypted with: ${list}, and this command holds key id ${describeKeys(keys)}. Nothing was re-wrapped.`,
    );
  }
  const sealed = await sealDocumentsInTheClear(db, keys, log);
  let rewrapped = 0;
  const { logEmptied } = await documents.erasingReplacedBytes(async () => {
    let after = '';
    for (;;) {
      const batch = await db.transaction().execute(async (trx) => {
        const repository = documentsRepository(trx);
        const rows = await repository.sealsNotUnder(keys.current.id, after, REWRAP_BATCH);
        for (const { id, seal } of rows) {
          await repository.replaceSeal(id, rewrapDataKey(keys, id, seal));
        }
        return rows;
      });
      const last = batch[batch.length - 1];
      if (!last) return;
      after = last.id;
      rewrapped += batch.length;
      log.info(`Re-wrapped ${String(rewrapped)} data keys.`);
    }
  });
  if (!logEmptied) {
    log.warn(
      'Could not empty the write-ahead log: old wrapped keys may stay in kyc-desk.sqlite-wal until its next checkpoint.',
    );
  }
  await restoreListRecords(db, rewrapped);
  return {
    keyId: keys.current.id,
    rewrapped,
    sealed,
    byKeyId: await documents.countByKeyId(),
  };
}
