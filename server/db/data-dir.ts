import fs from 'node:fs';

/** DATA_DIR holds every record, the signing secret and the outbox: the server's user only. */
const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;

/** Creates `directory` (and missing parents) as 0700, and tightens it to 0700 if it is ours. */
export function ensurePrivateDirectory(directory: string): void {
  fs.mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY });
  restrict(directory, PRIVATE_DIRECTORY);
}

/**
 * Creates `file` empty as 0600 when missing, so whatever opens it next (SQLite) finds that mode
 * whatever the umask, and tightens an existing file of ours to 0600.
 */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE));
  restrict(file, PRIVATE_FILE);
}

/** Tightens `file` to 0600 when it exists and is ours. */
export function restrictFile(file: string): void {
  restrict(file, PRIVATE_FILE);
}

function restrict(target: string, mode: number): void {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  // Another user's file (a shared volume) cannot be changed by us and is left as it is.
  const ours = process.getuid === undefined || stats.uid === process.getuid();
  if (ours && (stats.mode & 0o777) !== mode) fs.chmodSync(target, mode);
}
