import os from 'node:os';
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/database.ts';
import type { Db } from '../db/database.ts';
import { backupSqlite, copySqliteToPostgres, restoreSqlite } from '../db/maintenance.ts';
import { loadConfig, type Config } from '../env.ts';
import {
  AdminError,
  createAccountCommand,
  disableAccountCommand,
  listAccountsCommand,
  resetApiKeyCommand,
  resetPasswordCommand,
  revokeSessionsCommand,
  roleOf,
  setRoleCommand,
  type AccountSummary,
} from './account-commands.ts';
import { createAuditTrail } from '../audit/audit-trail.ts';
import { pruneAuditEvents } from '../audit/retention.ts';
import { verifyAuditChain, type Verification } from '../audit/verify.ts';
import {
  listClientConfigsCommand,
  removeClientConfigCommand,
  setClientConfigCommand,
  type ClientConfigSummary,
} from './client-config-commands.ts';
import { rotateKeysCommand, rotationText } from './key-commands.ts';

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

interface Invocation {
  command: string;
  /** The one positional argument (a username, a file, a URL); empty for commands that take none. */
  argument: string;
  displayName: string | undefined;
  /** client-config:set's texts; undefined when not given. */
  subject: string | undefined;
  message: string | undefined;
  description: string | undefined;
  role: string | undefined;
  json: boolean;
}

/** What a command is given: the configuration, and the database opened on first use. */
interface CommandContext {
  config: Config;
  db(): Promise<Db>;
  now: () => Date;
}

interface CommandSpec {
  usage: string;
  summary: string;
  /** What the positional argument is, in the error that says it is missing. */
  takes:
    | 'a username'
    | 'a username and a role'
    | 'a file name'
    | 'a PostgreSQL URL'
    | 'a configId'
    | undefined;
  /** Exit 1 with this result (audit:verify finding a broken chain). */
  failed?: (result: object) => boolean;
  /** The result (printed as JSON with --json) and its lines of plain text. */
  execute(
    context: CommandContext,
    invocation: Invocation,
  ): Promise<{ result: object; lines: string[] }>;
}

function command<R extends object>(spec: {
  usage: string;
  summary: string;
  takes: CommandSpec['takes'];
  run: (context: CommandContext, invocation: Invocation) => Promise<R>;
  text: (result: R) => string[];
  failed?: (result: R) => boolean;
}): CommandSpec {
  const { run, text, failed: _failed, ...rest } = spec;
  return {
    ...rest,
    failed: spec.failed as CommandSpec['failed'],
    async execute(context, invocation) {
      const result = await run(context, invocation);
      return { result, lines: text(result) };
    },
  };
}

/** Commands on the embedded database file; PostgreSQL has its own tools for them. */
function requireSqlite(config: Config, postgresWay: string): void {
  if (config.databaseUrl !== undefined) {
    throw new AdminError(`With DATABASE_URL set, use PostgreSQL's own tools: ${postgresWay}`);
  }
}

const ONCE = 'Shown only this once: store it safely now.';

const COMMANDS: Record<string, CommandSpec> = {
  'account:create': command({
    usage: 'account:create <username> [--name "Display Name"] [--role reviewer|auditor]',
    summary: 'Create an account; prints its password and API key once.',
    takes: 'a username',
    run: async (context, { argument, displayName, role }) =>
      createAccountCommand(await context.db(), argument, displayName, roleOf(role)),
    text: (result: { username: string; role: string; password: string; apiKey: string }) => [
      `Created the account "${result.username}" (${result.role}).`,
      `Password: ${result.password}`,
      `API key:  ${result.apiKey}`,
      'Both are shown only this once: store them safely now.',
    ],
  }),
  'account:reset-password': command({
    usage: 'account:reset-password <username>',
    summary: 'Set a new random password; tokens issued before stop working.',
    takes: 'a username',
    run: async (context, { argument }) => resetPasswordCommand(await context.db(), argument),
    text: (result: { username: string; password: string }) => [
      `New password for "${result.username}": ${result.password}`,
      `Tokens issued before stop working. ${ONCE}`,
    ],
  }),
  'api-key:reset': command({
    usage: 'api-key:reset <username>',
    summary: 'Issue a new API key; the old key stops working at once.',
    takes: 'a username',
    run: async (context, { argument }) => resetApiKeyCommand(await context.db(), argument),
    text: (result: { username: string; apiKey: string }) => [
      `New API key for "${result.username}": ${result.apiKey}`,
      `The old key no longer works. ${ONCE}`,
    ],
  }),
  'account:disable': command({
    usage: 'account:disable <username>',
    summary: 'Disable an account: no sign-in, its tokens and API key stop working.',
    takes: 'a username',
    run: async (context, { argument }) => disableAccountCommand(await context.db(), argument),
    text: (result: { username: string }) => [
      `Disabled the account "${result.username}": its tokens and API key no longer work.`,
    ],
  }),
  'account:revoke-sessions': command({
    usage: 'account:revoke-sessions <username>',
    summary: 'Sign an account out everywhere: every token it holds stops working at once.',
    takes: 'a username',
    run: async (context, { argument }) =>
      revokeSessionsCommand(
        await context.db(),
        argument,
        context.config.upstream !== undefined,
        Date.now(),
      ),
    text: (result: { username: string; revokedSessions: number }) => [
      `Signed "${result.username}" out of ${String(result.revokedSessions)} session(s): those tokens no longer work.`,
    ],
  }),
  'account:set-role': command({
    usage: 'account:set-role <username> <reviewer|auditor>',
    summary: 'Give an account a role; auditors may read the whole audit log.',
    takes: 'a username and a role',
    run: async (context, { argument, role }) =>
      setRoleCommand(
        await context.db(),
        argument,
        roleOf(role),
        context.config.upstream !== undefined,
      ),
    text: (result: { username: string; role: string }) => [
      `"${result.username}" is now ${result.role === 'auditor' ? 'an auditor' : 'a reviewer'}.`,
    ],
  }),
  'account:list': command({
    usage: 'account:list',
    summary: 'List the accounts.',
    takes: undefined,
    run: async (context) => listAccountsCommand(await context.db()),
    text: (result: { accounts: AccountSummary[] }) =>
      result.accounts.length === 0
        ? ['No accounts yet. Create one with: npm run admin -- account:create <username>']
        : result.accounts.map(
            (account) =>
              `${account.username}\t${account.displayName}\t${account.role}\t${account.disabled ? 'disabled' : 'active'}\t${account.createdAt}`,
          ),
  }),
  'client-config:set': command({
    usage:
      'client-config:set <configId> --name "…" --subject "…" --message "…" [--description "…"]',
    summary: "Add or replace a client-update e-mail configuration (the real portal's configId).",
    takes: 'a configId',
    run: async (context, invocation) =>
      setClientConfigCommand(await context.db(), invocation.argument, {
        name: invocation.displayName,
        subject: invocation.subject,
        message: invocation.message,
        description: invocation.description,
      }),
    text: (result: { configId: number; created: boolean }) => [
      `${result.created ? 'Added' : 'Replaced'} the e-mail configuration ${String(result.configId)}.`,
    ],
  }),
  'client-config:remove': command({
    usage: 'client-config:remove <configId>',
    summary: 'Remove a client-update e-mail configuration.',
    takes: 'a configId',
    run: async (context, { argument }) => removeClientConfigCommand(await context.db(), argument),
    text: (result: { configId: number }) => [
      `Removed the e-mail configuration ${String(result.configId)}.`,
    ],
  }),
  'client-config:list': command({
    usage: 'client-config:list',
    summary: 'List the client-update e-mail configurations.',
    takes: undefined,
    run: async (context) => listClientConfigsCommand(await context.db()),
    text: (result: { configs: ClientConfigSummary[] }) =>
      result.configs.length === 0
        ? [
            'No e-mail configurations. Add one with: npm run admin -- client-config:set <configId> …',
          ]
        : result.configs.map(
            (config) => `${String(config.configId)}\t${config.name}\t${config.defaultSubject}`,
          ),
  }),
  'audit:verify': command({
    usage: 'audit:verify',
    summary: "Check the audit trail's hash chain; exit 1 naming the first broken event.",
    takes: undefined,
    run: async (context) => verifyAuditChain(await context.db()),
    failed: (result: Verification) => !result.intact,
    text: (result: Verification) =>
      result.intact
        ? [
            `The audit trail is intact: ${String(result.events)} events verified.`,
            result.head
              ? `Newest event: ${String(result.head.seq)}, hash ${result.head.hash} (keep it elsewhere to detect a rewrite).`
              : 'No events yet.',
          ]
        : [
            `The audit trail is broken at event ${String(result.broken.seq)} (${result.broken.id}): ${result.broken.reason}.`,
            `${String(result.events)} events before it verified.`,
          ],
  }),
  'audit:prune': command({
    usage: 'audit:prune',
    summary: 'Delete audit events older than AUDIT_RETENTION_DAYS (the server also does daily).',
    takes: undefined,
    run: async ({ config, now, ...context }) =>
      pruneAuditEvents(await context.db(), config.auditRetentionDays, now()),
    text: (result: { pruned: number; through: number | null }) => [
      result.through === null
        ? 'No audit events are older than the retention period.'
        : `Deleted ${String(result.pruned)} audit events, through event ${String(result.through)}; the chain now starts after it.`,
    ],
  }),
  'keys:rotate': command({
    usage: 'keys:rotate',
    summary:
      'Re-wrap every document key under DOCUMENT_KEY, unwrapping with DOCUMENT_KEY_PREVIOUS, while servers run.',
    takes: undefined,
    run: (context) => rotateKeysCommand(context.config, () => context.db()),
    text: rotationText,
  }),
  'db:backup': command({
    usage: 'db:backup <file>',
    summary: 'Write a consistent copy of the embedded database to <file>, while servers run.',
    takes: 'a file name',
    run: ({ config }, { argument }) => {
      requireSqlite(
        config,
        'pg_dump --format=custom --file=<file> "$DATABASE_URL" (docs/deployment.md).',
      );
      return Promise.resolve({ file: argument, ...backupSqlite(config.dataDir, argument) });
    },
    text: (result: { file: string; bytes: number }) => [
      `Backed up the database to ${result.file} (${String(result.bytes)} bytes).`,
    ],
  }),
  'db:restore': command({
    usage: 'db:restore <file>',
    summary: 'Replace the embedded database with a backup; stop every server first.',
    takes: 'a file name',
    run: ({ config, now }, { argument }) => {
      requireSqlite(
        config,
        'pg_restore --clean --if-exists --dbname="$DATABASE_URL" <file> (docs/deployment.md).',
      );
      return Promise.resolve({ file: argument, ...restoreSqlite(config.dataDir, argument, now()) });
    },
    text: (result: { file: string; keptAs: string | undefined }) => [
      `Restored the database from ${result.file}.`,
      result.keptAs
        ? `The database it replaced is kept as ${result.keptAs}.`
        : 'There was no database before it.',
    ],
  }),
  'db:copy-to-postgres': command({
    usage: 'db:copy-to-postgres <postgres-url>',
    summary: 'Copy the embedded database into a new, empty PostgreSQL database and verify it.',
    takes: 'a PostgreSQL URL',
    run: async ({ config }, { argument }) => {
      if (!/^postgres(ql)?:\/\//.test(argument)) {
        throw new AdminError('db:copy-to-postgres needs a postgres:// or postgresql:// URL.');
      }
      return copySqliteToPostgres(config.dataDir, argument);
    },
    text: (result: { tables: { table: string; rows: number }[]; documentBytes: number }) => [
      ...result.tables.map(({ table, rows }) => `${table}: ${String(rows)} rows`),
      `Document bytes: ${String(result.documentBytes)}, identical on both sides.`,
      'Copied and verified: every table has the same number of rows on both sides.',
    ],
  }),
};

export function helpText(): string {
  const width = Math.max(...Object.values(COMMANDS).map((spec) => spec.usage.length));
  return [
    'Usage: npm run admin -- <command> [--json]',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((spec) => `  ${spec.usage.padEnd(width)}  ${spec.summary}`),
    '',
    'Options:',
    '  --json      print exactly one JSON object',
    '  --help, -h  show this help',
    '',
    'DATABASE_URL selects a PostgreSQL database; otherwise DATA_DIR selects the embedded one',
    '(default ./data).',
  ].join('\n');
}

/** Runs one admin command; returns the exit code. Errors are one sentence on stderr. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  let invocation: Invocation | 'help';
  try {
    invocation = parseInvocation(argv);
  } catch (error) {
    if (error instanceof AdminError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (invocation === 'help') {
    io.stdout(`${argv.includes('--json') ? JSON.stringify({ help: helpText() }) : helpText()}\n`);
    return 0;
  }
  const spec = COMMANDS[invocation.command];
  if (!spec) throw new Error('parseInvocation accepted an unknown command');

  let db: Db | undefined;
  try {
    const config = loadConfig(io.env);
    const context: CommandContext = {
      config,
      async db() {
        db ??= (await openDatabase(config.dataDir, config.databaseUrl)).db;
        return db;
      },
      now: () => new Date(),
    };
    const { result, lines } = await spec.execute(context, invocation);
    await recordAdminEvent(context, invocation, spec);
    io.stdout(
      invocation.json
        ? `${JSON.stringify(result)}\n`
        : `${[...lines, `(${databaseLabel(config)})`].join('\n')}\n`,
    );
    return spec.failed?.(result) ? 1 : 0;
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await db?.destroy();
  }
}

function parseInvocation(argv: string[]): Invocation | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        name: { type: 'string' },
        subject: { type: 'string' },
        message: { type: 'string' },
        description: { type: 'string' },
        role: { type: 'string' },
      },
    });
  } catch (error) {
    const detail = error instanceof Error ? (error.message.split('. ')[0] ?? '') : '';
    throw new AdminError(`${detail.replace(/\.$/, '')}. Run npm run admin -- --help for usage.`);
  }
  const { values, positionals } = parsed;
  const [command, argument, ...rest] = positionals;
  // account:set-role takes its role as a second word; --role says the same.
  const roleWord = command === 'account:set-role' ? rest.shift() : undefined;
  const extra = rest;
  if (values.help || command === undefined || command === 'help') return 'help';
  const spec = COMMANDS[command];
  if (!spec) {
    throw new AdminError(
      `Unknown command "${command}". Run npm run admin -- --help for the commands.`,
    );
  }
  if (spec.takes !== undefined && argument === undefined) {
    throw new AdminError(`${command} needs ${spec.takes}: npm run admin -- ${spec.usage}`);
  }
  const unexpected = spec.takes !== undefined ? extra : [argument, ...extra].filter(Boolean);
  if (unexpected.length > 0) {
    throw new AdminError(
      `${command} does not take "${unexpected.join(' ')}": npm run admin -- ${spec.usage}`,
    );
  }
  if (
    values.name !== undefined &&
    command !== 'account:create' &&
    command !== 'client-config:set'
  ) {
    throw new AdminError(`--name applies only to account:create and client-config:set.`);
  }
  if (values.role !== undefined && command !== 'account:create') {
    throw new AdminError(
      '--role applies only to account:create; use account:set-role <username> <role>.',
    );
  }
  if (command === 'account:set-role' && roleWord === undefined) {
    throw new AdminError(`account:set-role needs a role: npm run admin -- ${spec.usage}`);
  }
  for (const option of ['subject', 'message', 'description'] as const) {
    if (values[option] !== undefined && command !== 'client-config:set') {
      throw new AdminError(`--${option} applies only to client-config:set.`);
    }
  }
  return {
    command,
    argument: spec.takes !== undefined ? (argument ?? '') : '',
    displayName: values.name,
    subject: values.subject,
    message: values.message,
    description: values.description,
    role: values.role ?? roleWord,
    json: values.json ?? false,
  };
}

/** Which database a command worked on, without the password a URL may hold. */
function databaseLabel(config: Config): string {
  if (config.databaseUrl === undefined) return `database in ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL database ${url.pathname.slice(1)} on ${url.host}`;
}

/**
 * Every command that ran is an audit event (`account.create`, `db.backup`, …) by `admin-cli`,
 * with the operating-system user; a PostgreSQL URL is recorded without its password.
 */
async function recordAdminEvent(
  context: CommandContext,
  invocation: Invocation,
  spec: CommandSpec,
): Promise<void> {
  const target =
    spec.takes === 'a PostgreSQL URL'
      ? databaseLabel({ ...context.config, databaseUrl: invocation.argument })
      : invocation.argument;
  await createAuditTrail(await context.db(), context.now).record({
    actor: 'admin-cli',
    action: invocation.command.replace(':', '.'),
    detail: {
      osUser: os.userInfo().username,
      ...(target ? { target } : {}),
      ...(invocation.role ? { role: invocation.role } : {}),
    },
  });
}
