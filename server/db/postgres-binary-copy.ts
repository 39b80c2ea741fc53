import { type RawBuilder, sql } from 'kysely';
import pg from 'pg';

/**
 * The statement answered with raw bytes: `copy (<query>) to stdout (format binary)`. node-postgres
 * decodes every column of an ordinary result as UTF-8 text, so a bytea arrives as hex (twice its
 * size, encoded by PostgreSQL and decoded here) and `binary: true` corrupts it
 * (node-postgres#3495); COPY's data messages arrive as the bytes themselves.
 */
const BINARY_COPY = /^\s*copy\s*\(.*\)\s*to\s+stdout\s*\(\s*format\s+binary\s*\)\s*$/is;

/** The start of binary COPY output: its signature, then 32-bit flags and extension length. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** One row of binary COPY output: its columns' bytes in the query's order, null for NULL. */
export interface BinaryCopyRow {
  fields: (Buffer | null)[];
}

/** The rows of binary COPY output (PostgreSQL's COPY documentation, "Binary Format"). */
export function rowsOfBinaryCopy(output: Buffer): BinaryCopyRow[] {
  if (!output.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
    throw new Error('The COPY output is not in the binary format.');
  }
  // readInt*/readUInt* throw a RangeError on output cut short.
  let offset = SIGNATURE.length + 4;
  offset += 4 + output.readUInt32BE(offset);
  const rows: BinaryCopyRow[] = [];
  for (;;) {
    const count = output.readInt16BE(offset);
    offset += 2;
    if (count === -1) return rows;
    const fields: (Buffer | null)[] = [];
    for (let column = 0; column < count; column++) {
      const length = output.readInt32BE(offset);
      offset += 4;
      if (length === -1) {
        fields.push(null);
        continue;
      }
      if (offset + length > output.length) throw new RangeError('The COPY output was cut short.');
      fields.push(output.subarray(offset, offset + length));
      offset += length;
    }
    rows.push({ fields });
  }
}

interface CopyResult {
  command: 'COPY';
  rowCount: number;
  rows: BinaryCopyRow[];
}

/** A query node-postgres runs as it runs its own (a "submittable"), keeping COPY's data as bytes. */
class BinaryCopyOut {
  readonly result: Promise<CopyResult>;
  private readonly pieces: Buffer[] = [];
  private settle: { resolve(result: CopyResult): void; reject(error: unknown): void } = {
    resolve: () => undefined,
    reject: () => undefined,
  };

  constructor(private readonly text: string) {
    this.result = new Promise<CopyResult>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  // The parser reuses its buffer for later messages: each piece is copied before it returns.
  handleCopyData(message: { chunk: Buffer }): void {
    this.pieces.push(Buffer.from(message.chunk));
  }

  handleReadyForQuery(): void {
    try {
      const rows = rowsOfBinaryCopy(Buffer.concat(this.pieces));
      this.settle.resolve({ command: 'COPY', rowCount: rows.length, rows });
    } catch (error) {
      this.settle.reject(error);
    }
  }

  handleError(error: unknown): void {
    this.settle.reject(error);
  }

  // COPY TO sends none of these; the client calls them on whatever query is active.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('Only COPY … TO STDOUT is read as bytes.');
  }
}

/**
 * Makes `client` answer `copy (…) to stdout (format binary)` with rows of raw bytes
 * (BinaryCopyRow), through Kysely like any statement; every other query goes on as before.
 */
export function answerBinaryCopies(client: pg.ClientBase): void {
  const query = client.query.bind(client);
  const send = (...args: unknown[]): unknown => Reflect.apply(query, undefined, args);
  const withBinaryCopies = (...args: unknown[]): unknown => {
    const [text, values] = args;
    if (typeof text !== 'string' || !BINARY_COPY.test(text)) return send(...args);
    if (Array.isArray(values) && values.length > 0) {
      return Promise.reject(new Error('COPY takes no parameters: write them as literals.'));
    }
    const copy = new BinaryCopyOut(text);
    send(copy);
    return copy.result;
  };
  Object.assign(client, { query: withBinaryCopies });
}

/**
 * A value as a literal, for COPY (which takes no parameters): text through node-postgres's
 * escapeLiteral (an E'' string when it holds a backslash, read the same under either setting of
 * standard_conforming_strings), a safe integer as its digits. A plain literal, unlike a function
 * of one, is an index condition.
 */
export function copyLiteral(value: string | number): RawBuilder<unknown> {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`Not an integer: ${String(value)}`);
    return sql.lit(value);
  }
  return sql.raw(pg.escapeLiteral(value));
}
