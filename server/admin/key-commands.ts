import type { Db } from '../db/database.ts';
import {
  loadDocumentKeys,
  rotateDocumentKeys,
  type RotationReport,
} from '../documents/document-keys.ts';
import type { Config } from '../env.ts';
import { AdminError } from './account-commands.ts';

export type RotationSummary = RotationReport & {
  /** Sealed documents still under another key afterwards (written by a server with the old one). */
  leftBehind: number;
  warnings: string[];
};

/**
 * Re-wraps every document's data key under DOCUMENT_KEY, unwrapping with DOCUMENT_KEY_PREVIOUS:
 * the servers are given the same two variables first, so each one can read every document at every
 * moment of the rotation (docs/deployment.md).
 */
export async function rotateKeysCommand(config: Config, db: () => Promise<Db>) {
  if (!config.documentKey) {
    throw new AdminError(
      'keys:rotate re-wraps the document keys under DOCUMENT_KEY: set DOCUMENT_KEY to the new key and DOCUMENT_KEY_PREVIOUS to the old one, as the servers have them (docs/deployment.md).',
    );
  }
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (message: string) => warnings.push(message) };
  const keys = loadDocumentKeys(config, log);
  const report = await rotateDocumentKeys(await db(), keys, log);
  const leftBehind = report.byKeyId
    .filter(({ keyId }) => keyId !== report.keyId)
    .reduce((sum, { documents }) => sum + documents, 0);
  return { ...report, leftBehind, warnings } satisfies RotationSummary;
}

export function rotationText(summary: RotationSummary): string[] {
  const total = summary.byKeyId.reduce((sum, { documents }) => sum + documents, 0);
  return [
    `Re-wrapped ${String(summary.rewrapped)} document keys under key id ${summary.keyId} (DOCUMENT_KEY); the documents' bytes were not touched.`,
    ...(summary.sealed > 0
      ? [`Encrypted ${String(summary.sealed)} documents that were stored in the clear.`]
      : []),
    summary.leftBehind === 0
      ? `All ${String(total)} documents are under key id ${summary.keyId}: the servers no longer need DOCUMENT_KEY_PREVIOUS.`
      : `${String(summary.leftBehind)} documents were written under another key meanwhile: give every server the new DOCUMENT_KEY and run keys:rotate again.`,
    ...summary.warnings,
  ];
}
