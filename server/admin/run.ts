import { parseArgs } from 'node:util';
import { openDatabase } from '../db/database.ts';
import type { Db } from '../db/database.ts';
import { loadConfig } from '../env.ts';
import {
  AdminError,
  createAccountCommand,
  disableAccountCommand,
  listAccountsCommand,
  resetApiKeyCommand,
  resetPasswordCommand,
  type AccountSummary,
} from './account-commands.ts';

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

interface Invocation {
  command: string;
  /** Empty for commands that take none. */
  username: string;
  displayName: string | undefined;
  json: boolean;
}

interface CommandSpec {
  usage: string;
  summary: string;
  takesUsername: boolean;
  /** The result (printed as JSON with --json) and its lines of plain text. */
  execute(db: Db, invocation: Invocation): Promise<{ result: object; lines: string[] }>;
}

function command<R extends object>(spec: {
  usage: string;
  summary: string;
  takesUsername: boolean;
  run: (db: Db, invocation: Invocation) => Promise<R>;
  text: (result: R) => string[];
}): CommandSpec {
  const { run, text, ...rest } = spec;
  return {
    ...rest,
    async execute(db, invocation) {
      const result = await run(db, invocation);
      return { result, lines: text(result) };
    },
  };
}

const ONCE = 'Shown only this once: store it safely now.';

const COMMANDS: Record<string, CommandSpec> = {
  'account:create': command({
    usage: 'account:create <username> [--name "Display Name"]',
    summary: 'Create an account; prints its password and API key once.',
    takesUsername: true,
    run: (db, { username, displayName }) => createAccountCommand(db, username, displayName),
    text: (result: { username: string; password: string; apiKey: string }) => [
      `Created the account "${result.username}".`,
      `Password: ${result.password}`,
      `API key:  ${result.apiKey}`,
      'Both are shown only this once: store them safely now.',
    ],
  }),
  'account:reset-password': command({
    usage: 'account:reset-password <username>',
    summary: 'Set a new random password; tokens issued before stop working.',
    takesUsername: true,
    run: (db, { username }) => resetPasswordCommand(db, username),
    text: (result: { username: string; password: string }) => [
      `New password for "${result.username}": ${result.password}`,
      `Tokens issued before stop working. ${ONCE}`,
    ],
  }),
  'api-key:reset': command({
    usage: 'api-key:reset <username>',
    summary: 'Issue a new API key; the old key stops working at once.',
    takesUsername: true,
    run: (db, { username }) => resetApiKeyCommand(db, username),
    text: (result: { username: string; apiKey: string }) => [
      `New API key for "${result.username}": ${result.apiKey}`,
      `The old key no longer works. ${ONCE}`,
    ],
  }),
  'account:disable': command({
    usage: 'account:disable <username>',
    summary: 'Disable an account: no sign-in, its tokens and API key stop working.',
    takesUsername: true,
    run: (db, { username }) => disableAccountCommand(db, username),
    text: (result: { username: string }) => [
      `Disabled the account "${result.username}": its tokens and API key no longer work.`,
    ],
  }),
  'account:list': command({
    usage: 'account:list',
    summary: 'List the accounts.',
    takesUsername: false,
    run: (db) => listAccountsCommand(db),
    text: (result: { accounts: AccountSummary[] }) =>
      result.accounts.length === 0
        ? ['No accounts yet. Create one with: npm run admin -- account:create <username>']
        : result.accounts.map(
            (account) =>
              `${account.username}\t${account.displayName}\t${account.disabled ? 'disabled' : 'active'}\t${account.createdAt}`,
          ),
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
    'DATA_DIR selects the database (default ./data).',
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
    db = (await openDatabase(config.dataDir, config.databaseUrl)).db;
    const { result, lines } = await spec.execute(db, invocation);
    io.stdout(
      invocation.json
        ? `${JSON.stringify(result)}\n`
        : `${[...lines, `(database in ${config.dataDir})`].join('\n')}\n`,
    );
    return 0;
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
      },
    });
  } catch (error) {
    const detail = error instanceof Error ? (error.message.split('. ')[0] ?? '') : '';
    throw new AdminError(`${detail.replace(/\.$/, '')}. Run npm run admin -- --help for usage.`);
  }
  const { values, positionals } = parsed;
  const [command, username, ...extra] = positionals;
  if (values.help || command === undefined || command === 'help') return 'help';
  const spec = COMMANDS[command];
  if (!spec) {
    throw new AdminError(
      `Unknown command "${command}". Run npm run admin -- --help for the commands.`,
    );
  }
  if (spec.takesUsername && username === undefined) {
    throw new AdminError(`${command} needs a username: npm run admin -- ${spec.usage}`);
  }
  const unexpected = spec.takesUsername ? extra : [username, ...extra].filter(Boolean);
  if (unexpected.length > 0) {
    throw new AdminError(
      `${command} does not take "${unexpected.join(' ')}": npm run admin -- ${spec.usage}`,
    );
  }
  if (values.name !== undefined && command !== 'account:create') {
    throw new AdminError(`--name applies only to account:create.`);
  }
  return {
    command,
    username: spec.takesUsername ? (username ?? '') : '',
    displayName: values.name,
    json: values.json ?? false,
  };
}
