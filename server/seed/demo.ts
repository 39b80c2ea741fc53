import { accountsRepository } from '../auth/accounts-repository.ts';
import { createAccount } from '../auth/accounts.ts';
import { renumberNameOrder } from '../entities/repository.ts';
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
 */
export async function ensureDemoData(
  services: AppServices,
): Promise<{ username: string; password: string } | null> {
  return seedRepository(services.db).inTransaction(async (trx) => {
    const seed = seedRepository(trx);
    await seed.recordFirstStartCheck(services.now());
    if (await seed.hasEntities()) return null;
    if (await accountsRepository(trx).findByUsername(DEMO_ACCOUNT.username)) return null;
    const generator = createGenerator({
      seed: DEMO_SEED,
      now: services.now(),
      documentKeys: services.documentKeys,
    });
    await seed.insert(generator.batch(DEMO_LEGAL_ENTITIES, DEMO_NATURAL_PERSONS));
    await renumberNameOrder(trx, 'company');
    await renumberNameOrder(trx, 'person');
    const account = await createAccount(trx, DEMO_ACCOUNT.username, {
      displayName: DEMO_ACCOUNT.displayName,
    });
    return { username: account.username, password: account.password };
  });
}
