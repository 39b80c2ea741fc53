import type { Db } from '../db/database.ts';
import { GENESIS_HASH, hashOfEvent } from './chain.ts';
import { auditRepository } from './repository.ts';

const ROWS_PER_READ = 2000;

export type Verification =
  | { intact: true; events: number; head: { seq: number; hash: string } | null }
  | {
      intact: false;
      events: number;
      broken: { seq: number; id: string; reason: string };
    };

/**
 * Walks the chain oldest first from the anchor (or the genesis): each event must follow the one
 * before it in `seq`, name its hash in `prev_hash` and hash to its own `hash`. The first event
 * that does not is named: an edit breaks its own hash, a deletion or reordering the link.
 */
export async function verifyAuditChain(db: Db): Promise<Verification> {
  const repository = auditRepository(db);
  const anchor = await repository.anchor();
  let expected = anchor ?? { seq: 0, hash: GENESIS_HASH };
  let events = 0;
  for (;;) {
    const rows = await repository.chainFrom(expected.seq, ROWS_PER_READ);
    for (const row of rows) {
      const broken = (reason: string): Verification => ({
        intact: false,
        events,
        broken: { seq: row.seq, id: row.id, reason },
      });
      if (row.seq !== expected.seq + 1) {
        return broken(
          `event ${String(row.seq)} follows event ${String(expected.seq)}: an event before it was deleted or moved`,
        );
      }
      if (row.prev_hash !== expected.hash) {
        return broken(
          'its link to the event before does not match: events were reordered or replaced',
        );
      }
      if (hashOfEvent(row) !== row.hash)
        return broken('its content does not match its hash: it was edited');
      expected = { seq: row.seq, hash: row.hash };
      events += 1;
    }
    if (rows.length < ROWS_PER_READ) break;
  }
  return { intact: true, events, head: events > 0 || anchor ? expected : null };
}
