import fs from 'node:fs/promises';
import path from 'node:path';
import { AUDIT_ACTIONS } from '../../contract/audit.ts';
import { helpText } from '../admin/run.ts';
import { UNDECLARED_CONTROL_ACTION } from '../http/route.ts';
import { startTestServer } from '../testing/harness.ts';

/** Every action a route declared with defineRoute, in whichever app (embedded or gateway) built it. */
const declaredActions = vi.hoisted(() => new Set<string>());

vi.mock('../http/route.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../http/route.ts')>();
  return {
    ...original,
    defineRoute: ((app, spec, handler) => {
      if (spec.audit) declaredActions.add(spec.audit.action);
      original.defineRoute(app, spec, handler);
    }) satisfies typeof original.defineRoute,
  };
});

const SERVER_DIR = path.resolve(import.meta.dirname, '..');

/**
 * The actions written outside a route's declaration (a handler's other action, the portal, the
 * gateway's relay, sign-in and webhooks): every `'resource.verb'` literal on a line that names an
 * action in the server's own source.
 */
async function actionsInSource(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const files = await fs.readdir(SERVER_DIR, { recursive: true });
  for (const file of files) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.startsWith('testing')) continue;
    const lines = (await fs.readFile(path.join(SERVER_DIR, file), 'utf8')).split('\n');
    lines.forEach((line, index) => {
      if (!/action/i.test(line)) return;
      for (const [, action] of line.matchAll(/'([a-z][a-z-]*\.[a-z][a-z-]*)'/g)) {
        if (action) found.set(action, `server/${file}:${String(index + 1)}`);
      }
    });
  }
  return found;
}

/** `account:create` … as the admin CLI records them (`account.create`). */
function adminActions(): string[] {
  return helpText()
    .split('\n')
    .flatMap((line) => /^ {2}([a-z-]+:[a-z-]+)\b/.exec(line)?.[1] ?? [])
    .map((command) => command.replace(':', '.'));
}

test('the contract lists every action the server records, and nothing else', async () => {
  // Both modes' live apps: the harness's gateway stands in front of an embedded server.
  const server = await startTestServer({ mode: 'gateway' });
  await server.close();
  const inSource = await actionsInSource();
  const admin = adminActions();

  // The collectors themselves found what they must, so an empty scan cannot pass.
  expect([...declaredActions]).toEqual(
    expect.arrayContaining(['entity.view', 'stats.read', 'note.add', 'audit.read']),
  );
  expect([...inSource.keys()]).toEqual(
    expect.arrayContaining([
      'client-update.open',
      'auth.sign-in-failed',
      'auth.sign-out',
      'webhook.receive',
      'document.view',
    ]),
  );
  expect(admin).toEqual(expect.arrayContaining(['account.create', 'db.copy-to-postgres']));

  const recorded = new Map<string, string>([
    ...[...declaredActions].map((action) => [action, 'a route declaration'] as const),
    ...inSource,
    ...admin.map((action) => [action, 'an admin command'] as const),
    [UNDECLARED_CONTROL_ACTION, 'server/http/route.ts'],
  ]);
  const listed = new Set<string>(AUDIT_ACTIONS);
  const missing = [...recorded].filter(([action]) => !listed.has(action));
  expect(missing, 'recorded by the server, missing from contract/audit.ts').toEqual([]);
  const neverRecorded = AUDIT_ACTIONS.filter((action) => !recorded.has(action));
  expect(neverRecorded, 'in contract/audit.ts, recorded nowhere').toEqual([]);
});
