import type { Db } from '../db/database.ts';
import { gatewayRecordsRepository } from '../gateway/repository.ts';
import { AdminError } from './account-commands.ts';

export interface ClientConfigSummary {
  configId: number;
  name: string;
  description: string;
  defaultSubject: string;
  defaultMessage: string;
}

/** The largest configId the integer column holds on both engines. */
const MAX_CONFIG_ID = 2_147_483_647;

function configIdOf(argument: string): number {
  const configId = Number(argument);
  if (!/^\d{1,10}$/.test(argument) || configId < 1 || configId > MAX_CONFIG_ID) {
    throw new AdminError(
      `"${argument}" is not a configId: use a whole number from 1 to 2147483647.`,
    );
  }
  return configId;
}

/** A required one-line text of at most `max` characters (the subject becomes an e-mail header). */
function oneLine(option: string, value: string | undefined, max: number): string {
  const text = value?.trim() ?? '';
  if (text === '' || text.length > max || /\p{Cc}/u.test(text)) {
    throw new AdminError(`--${option} must be 1 to ${String(max)} characters on one line.`);
  }
  return text;
}

export async function setClientConfigCommand(
  db: Db,
  argument: string,
  options: {
    name: string | undefined;
    subject: string | undefined;
    message: string | undefined;
    description: string | undefined;
  },
): Promise<{ configId: number; created: boolean }> {
  const configId = configIdOf(argument);
  const name = oneLine('name', options.name, 200);
  const subject = oneLine('subject', options.subject, 200);
  const description =
    options.description === undefined ? '' : oneLine('description', options.description, 500);
  const message = options.message?.trim() ?? '';
  if (message === '' || message.length > 10_000) {
    throw new AdminError('--message must be 1 to 10,000 characters.');
  }
  const created = await gatewayRecordsRepository(db).saveConfig({
    config_id: configId,
    name,
    description,
    default_subject: subject,
    default_message: message,
  });
  return { configId, created };
}

export async function removeClientConfigCommand(
  db: Db,
  argument: string,
): Promise<{ configId: number }> {
  const configId = configIdOf(argument);
  const outcome = await gatewayRecordsRepository(db).removeConfig(configId);
  if (outcome === 'unknown') {
    throw new AdminError(`There is no e-mail configuration ${String(configId)}.`);
  }
  if (outcome === 'in-use') {
    throw new AdminError(
      `The e-mail configuration ${String(configId)} is named by requests sent in embedded mode; it stays.`,
    );
  }
  return { configId };
}

export async function listClientConfigsCommand(
  db: Db,
): Promise<{ configs: ClientConfigSummary[] }> {
  const rows = await gatewayRecordsRepository(db).listConfigs();
  return {
    configs: rows.map((row) => ({
      configId: row.config_id,
      name: row.name,
      description: row.description,
      defaultSubject: row.default_subject,
      defaultMessage: row.default_message,
    })),
  };
}
