import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { dropTestDatabaseUrl, newTestDatabaseUrl, testEngine } from '../testing/harness.ts';
import { openDatabase, type Db } from './database.ts';
import { type BinaryCopyRow, copyLiteral, rowsOfBinaryCopy } from './postgres-binary-copy.ts';

/** Binary COPY output as PostgreSQL writes it: signature, flags, extension, rows, trailer. */
function copyOutput(rows: (Buffer | null)[][], extension = Buffer.alloc(0)): Buffer {
  const int16 = (value: number) => Buffer.from([(value >> 8) & 0xff, value & 0xff]);
  const int32 = (value: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeInt32BE(value);
    return bytes;
  };
  return Buffer.concat([
    Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
    int32(0),
    int32(extension.length),
    extension,
    ...rows.flatMap((fields) => [
      int16(fields.length),
      ...fields.flatMap((field) => (field === null ? [int32(-1)] : [int32(field.length), field])),
    ]),
    int16(-1),
  ]);
}

describe('binary COPY output', () => {
  it('gives each row its fields as bytes, NULL as null, past a header extension', () => {
    const output = copyOutput(
      [
        [Buffer.from([0, 255, 10]), null],
        [Buffer.alloc(0), Buffer.from('é', 'utf8')],
      ],
      Buffer.from('ext'),
    );
    expect(rowsOfBinaryCopy(output)).toEqual([
      { fields: [Buffer.from([0, 255, 10]), null] },
      { fields: [Buffer.alloc(0), Buffer.from('é', 'utf8')] },
    ]);
  });

  it('refuses text output and output cut short', () => {
    expect(() => rowsOfBinaryCopy(Buffer.from('\\x00ff\n'))).toThrow(/binary format/);
    const whole = copyOutput([[Buffer.alloc(10, 1)]]);
    expect(() => rowsOfBinaryCopy(whole.subarray(0, whole.length - 6))).toThrow(RangeError);
    expect(() => rowsOfBinaryCopy(whole.subarray(0, whole.length - 2))).toThrow(RangeError);
  });
});

describe.runIf(testEngine === 'postgres')('PostgreSQL: COPY … TO STDOUT (FORMAT binary)', () => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let db: Db;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kyc-desk-binary-copy-'));
    databaseUrl = await newTestDatabaseUrl();
    ({ db } = await openDatabase(dataDir, databaseUrl));
    await sql`create table copy_probe (id int primary key, bytes bytea)`.execute(db);
  });

  afterAll(async () => {
    await db.destroy();
    await dropTestDatabaseUrl(databaseUrl);
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const copyOf = (id: number) =>
    sql<BinaryCopyRow>`copy (select bytes from copy_probe where id = ${copyLiteral(id)}) to stdout (format binary)`.execute(
      db,
    );

  it('reads bytea as the exact bytes stored: every byte value, and 1 MB of random ones', async () => {
    const everyByte = Buffer.from(Array.from({ length: 512 }, (_, index) => index % 256));
    const random = crypto.randomBytes(1024 * 1024);
    await sql`insert into copy_probe values (1, ${everyByte}), (2, ${random}), (3, null)`.execute(
      db,
    );

    expect((await copyOf(1)).rows).toEqual([{ fields: [everyByte] }]);
    const { rows } = await copyOf(2);
    expect(rows[0]?.fields[0]?.equals(random)).toBe(true);
    expect((await copyOf(3)).rows).toEqual([{ fields: [null] }]);
    expect((await copyOf(4)).rows).toEqual([]);
  });

  it('reads inside a transaction on its connection, seeing what the transaction wrote', async () => {
    const written = Buffer.from([1, 2, 3, 0, 250]);
    await db.transaction().execute(async (trx) => {
      await sql`insert into copy_probe values (10, ${written})`.execute(trx);
      const { rows } =
        await sql<BinaryCopyRow>`copy (select bytes from copy_probe where id = 10) to stdout (format binary)`.execute(
          trx,
        );
      expect(rows).toEqual([{ fields: [written] }]);
      await sql`delete from copy_probe where id = 10`.execute(trx);
    });
  });

  it('puts text in as a literal that survives quotes, backslashes and accents', async () => {
    const text = `O'Brien \\ "Ünïcødé" '); drop table copy_probe; --`;
    const { rows } =
      await sql<BinaryCopyRow>`copy (select ${copyLiteral(text)}::text) to stdout (format binary)`.execute(
        db,
      );
    expect(rows[0]?.fields[0]?.toString('utf8')).toBe(text);
    expect(() => copyLiteral(1.5)).toThrow(RangeError);
  });

  it('puts text in as a plain literal, which is an index condition (a function of one was not)', async () => {
    await sql`create table copy_keys (key text, seq int, primary key (key, seq))`.execute(db);
    const plan = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<{
        'QUERY PLAN': string;
      }>`explain select seq from copy_keys where key = ${copyLiteral('a-1')} and seq = ${copyLiteral(0)}`.execute(
        trx,
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Cond: \(\(key = 'a-1'::text\) AND \(seq = 0\)\)/);
  });

  it('fails with the database error, refuses parameters, and the pool goes on', async () => {
    await expect(
      // Two rows are sent before the third fails.
      sql`copy (select 10 / (3 - g) from generate_series(1, 5) g) to stdout (format binary)`.execute(
        db,
      ),
    ).rejects.toThrow(/division by zero/);
    await expect(
      sql`copy (select bytes from copy_probe where id = ${1}) to stdout (format binary)`.execute(
        db,
      ),
    ).rejects.toThrow(/no parameters/);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        sql<{ n: number }>`select ${index}::int as n`.execute(db),
      ),
    );
    expect(answers.map(({ rows }) => rows[0]?.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });
});
