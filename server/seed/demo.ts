import { accountsRepository } from '../auth/accounts-repository.ts';
import { prepareAccount } from '../auth/accounts.ts';
import { renumberNameOrder } from '../entities/read-model/repository.ts';
import type { AppServices } from '../services.ts';
import { createGenerator } from './generators.ts';
import { seedRepository } from './seed-repository.ts';

export const DEMO_ACCOUNT = { username: 'demo', displayName: 'Demo Reviewer' } as const;

/** Fixed so every fresh installation shows the same companies and people. */
const DEMO_SEED = 20_240_611;
const DEMO_LEGAL_ENTITIES = 160;
const DEMO_NATURAL_PERSONS = 100;

/**
 * On an empty database (no entities, no `demo` account) loads the demo data set and creates the
 * demo reviewer in one transaction; returns its one-time password, or null when nothing was done.
 * The data is generated and the password hashed before the transaction: generating took 80% of
 * the time, and a second server starting on the same DATA_DIR waits for the write lock meanwhile.
 */
export async function ensureDemoData(
  services: AppServices,
): Promise<{ username: string; password: string } | null> {
  if (await seedRepository(services.db).hasEntities()) return null;
  const rows = createGenerator({
    seed: DEMO_SEED,
    now: services.now(),
    documentKeys: services.documentKeys,
  }).batch(DEMO_LEGAL_ENTITIES, DEMO_NATURAL_PERSONS);
  const account = await prepareAccount(DEMO_ACCOUNT.username, {
    displayName: DEMO_ACCOUNT.displayName,
  });
  return seedRepository(services.db).inTransaction(async (trx) => {
    const seed = seedRepository(trx);
    await seed.recordFirstStartCheck(services.now());
    if (await seed.hasEntities()) return null;
    const accounts = accountsRepository(trx);
    if (await accounts.findByUsername(DEMO_ACCOUNT.username)) return null;
    await seed.insert(rows);
    await renumberNameOrder(trx, 'company');
    await renumberNameOrder(trx, 'person');
    await accounts.insert(account.record);
    return { username: account.username, password: account.password };
  });
}
