import { createDatabaseHealth, databaseFaultOf, type HealthLog } from './database-faults.ts';

function pgError(code: string, message: string) {
  return Object.assign(new Error(message), { code, severity: 'ERROR' });
}

describe('databaseFaultOf', () => {
  it('reads a full storage on both engines and from the operating system', () => {
    expect(
      databaseFaultOf(
        Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      ),
    ).toBe('storage-full');
    // PostgreSQL's disk_full, as a failing insert reports it (simulated: no full disk under the test server).
    expect(
      databaseFaultOf(
        pgError('53100', 'could not extend file "base/16384/16397": No space left on device'),
      ),
    ).toBe('storage-full');
    expect(
      databaseFaultOf(
        pgError('58030', 'could not write to file "pg_wal/xlogtemp.123": No space left on device'),
      ),
    ).toBe('storage-full');
    expect(databaseFaultOf(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe(
      'storage-full',
    );
  });

  it('reads an unreachable database on both engines', () => {
    for (const code of [
      'SQLITE_BUSY',
      'SQLITE_BUSY_TIMEOUT',
      'SQLITE_IOERR_WRITE',
      'SQLITE_CANTOPEN',
    ]) {
      expect(databaseFaultOf(Object.assign(new Error(code), { code }))).toBe('unavailable');
    }
    expect(
      databaseFaultOf(pgError('57P01', 'terminating connection due to administrator command')),
    ).toBe('unavailable');
    expect(databaseFaultOf(pgError('57P03', 'the database system is starting up'))).toBe(
      'unavailable',
    );
    expect(databaseFaultOf(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
    expect(databaseFaultOf(new Error('timeout exceeded when trying to connect'))).toBe(
      'unavailable',
    );
    expect(
      databaseFaultOf(new Error('Client has encountered a connection error and is not queryable')),
    ).toBe('unavailable');
    // Node's connect to a name with two addresses fails with an AggregateError of both.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(databaseFaultOf(new AggregateError([refused], ''))).toBe('unavailable');
    expect(databaseFaultOf(new Error('wrapped', { cause: refused }))).toBe('unavailable');
  });

  it('leaves every other error alone', () => {
    expect(
      databaseFaultOf(pgError('23505', 'duplicate key value violates unique constraint')),
    ).toBeUndefined();
    expect(
      databaseFaultOf(Object.assign(new Error('x'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })),
    ).toBeUndefined();
    expect(
      databaseFaultOf(new Error('cannot rollback - no transaction is active')),
    ).toBeUndefined();
    expect(databaseFaultOf(undefined)).toBeUndefined();
  });
});

function recordingLog() {
  const lines: { level: 'error' | 'warn'; message: string; detail: object }[] = [];
  const log: HealthLog = {
    error: (detail, message) => lines.push({ level: 'error', message, detail }),
    warn: (detail, message) => lines.push({ level: 'warn', message, detail }),
  };
  return { log, lines };
}

describe('createDatabaseHealth', () => {
  it('logs an outage once, then a count a minute, then "database back"', () => {
    const { log, lines } = recordingLog();
    let clock = 0;
    const health = createDatabaseHealth(log, () => clock);
    const refused = () =>
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    for (let second = 0; second < 150; second += 1) {
      clock = second * 1000;
      health.failed('unavailable', refused());
      health.failed('unavailable', refused());
    }
    expect(health.current()).toEqual({ unavailable: true, storageFull: false });
    clock = 150_000;
    health.succeeded(false);
    health.succeeded(false);
    expect(health.current()).toEqual({ unavailable: false, storageFull: false });
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['error', 'database unavailable: requests get 503 until it answers'],
      ['error', 'database still unavailable: 120 failed queries since the last line'],
      ['error', 'database still unavailable: 120 failed queries since the last line'],
      ['warn', 'database back: queries succeed again'],
    ]);
    expect(lines[3]?.detail).toEqual({ failedQueries: 300, outageSeconds: 150 });
  });

  it('logs a full storage once, counts an error reported twice once, and clears on a write only', () => {
    const { log, lines } = recordingLog();
    const health = createDatabaseHealth(log);
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    health.failed('storage-full', full);
    health.failed('storage-full', full);
    health.failed('storage-full', Object.assign(new Error('again'), { code: 'SQLITE_FULL' }));
    health.succeeded(false);
    expect(health.current()).toEqual({ unavailable: false, storageFull: true });
    health.succeeded(true);
    expect(health.current()).toEqual({ unavailable: false, storageFull: false });
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['error', 'storage full: writes are refused until space is freed'],
      ['warn', 'storage writable again'],
    ]);
    expect(lines[0]?.detail).toEqual({ code: 'SQLITE_FULL', cause: 'database or disk is full' });
    expect(lines[1]?.detail).toMatchObject({ refusedQueries: 2 });
  });
});
