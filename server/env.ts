import { FOUR_EYES_MODES } from '../contract/capabilities.ts';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { hostNameSchema } from '../contract/client-updates.ts';

const optionalUrl = (name: string, protocols: RegExp) =>
  z
    .string()
    .optional()
    .refine(
      (value) => value === undefined || value === '' || isUrl(value, protocols),
      `${name} must be a URL (${protocols.source.replace(/[\^$()]/g, '').replace(/\|/g, ' or ')}).`,
    )
    .transform((value) => (value === '' ? undefined : value));

function isUrl(value: string, protocols: RegExp): boolean {
  try {
    return protocols.test(new URL(value).protocol.replace(':', ''));
  } catch {
    return false;
  }
}

/** `https://host[:port]` exactly as a browser sends it in `Origin`: no path, query or wildcard. */
function isExactOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value && !value.includes('*');
  } catch {
    return false;
  }
}

/** proxy-addr's names for whole address ranges, as Fastify's `trustProxy` understands them. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An IPv4/IPv6 address, a CIDR range of one, or one of proxy-addr's range names. */
function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.includes(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/** Seven years, leap days included. */
const AUDIT_RETENTION_DEFAULT_DAYS = 2557;
/** 32 bytes in base64 with its padding, as `openssl rand -base64 32` prints them (whitespace around ignored). */
const documentKey = (name: string) =>
  z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .refine(
      (value) => value === undefined || /^[A-Za-z0-9+/]{43}=$/.test(value),
      `${name} must be 32 random bytes in base64 (44 characters ending in =), as openssl rand -base64 32 prints them.`,
    )
    .transform((value) => (value === undefined ? undefined : Buffer.from(value, 'base64')));

/** A shared secret of the identity service's webhooks: long enough not to be guessed. */
const webhookSecret = (name: string) =>
  z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .refine(
      (value) => value === undefined || value.length >= 32,
      `${name} must be at least 32 characters (openssl rand -hex 32 prints one).`,
    );

const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'PORT must be a port number from 0 to 65535.' })
    .int('PORT must be a port number from 0 to 65535.')
    .min(0, 'PORT must be a port number from 0 to 65535.')
    .max(65535, 'PORT must be a port number from 0 to 65535.')
    .default(8080),
  HOST: z.string().min(1, 'HOST must not be empty.').default('127.0.0.1'),
  DATA_DIR: z.string().min(1, 'DATA_DIR must not be empty.').default('./data'),
  DATABASE_URL: optionalUrl('DATABASE_URL', /^(postgres|postgresql)$/),
  JWT_SECRET: z
    .string()
    .min(32, 'JWT_SECRET must be at least 32 characters.')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TOKEN_TTL_SECONDS: z.coerce
    .number({ error: 'TOKEN_TTL_SECONDS must be a whole number of seconds.' })
    .int('TOKEN_TTL_SECONDS must be a whole number of seconds.')
    .min(1, 'TOKEN_TTL_SECONDS must be at least 1.')
    .max(86_400, 'TOKEN_TTL_SECONDS must be at most 86400 (one day).')
    .default(1200),
  SMTP_URL: optionalUrl('SMTP_URL', /^(smtp|smtps)$/),
  MAIL_FROM: z.string().default('KYC Desk <no-reply@kyc-desk.local>'),
  PORTAL_DOMAIN: z.string().default('portal.kyc-desk.local'),
  PORTAL_DOMAINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim())
        .filter((host) => host !== ''),
    )
    .refine(
      (hosts) => hosts.every((host) => hostNameSchema.safeParse(host).success),
      'PORTAL_DOMAINS must be a comma-separated list of host names such as portal.example.com (no scheme, port, path or *).',
    )
    .transform((hosts) => hosts.map((host) => host.toLowerCase())),
  KYC_UPSTREAM_URL: optionalUrl('KYC_UPSTREAM_URL', /^(http|https)$/),
  KYC_UPSTREAM_API_KEY: z.string().optional(),
  KYC_UPSTREAM_API_KEY_HEADER: z
    .string()
    .regex(
      /^[A-Za-z0-9-]+$/,
      'KYC_UPSTREAM_API_KEY_HEADER must be a header name (letters, digits, -).',
    )
    .default('X-API-Key'),
  KYC_UPSTREAM_TIMEOUT_MS: z.coerce
    .number({ error: 'KYC_UPSTREAM_TIMEOUT_MS must be a whole number of milliseconds.' })
    .int('KYC_UPSTREAM_TIMEOUT_MS must be a whole number of milliseconds.')
    .min(1, 'KYC_UPSTREAM_TIMEOUT_MS must be at least 1.')
    .max(600_000, 'KYC_UPSTREAM_TIMEOUT_MS must be at most 600000 (ten minutes).')
    .default(15_000),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter((origin) => origin !== ''),
    )
    .refine(
      (origins) => origins.every(isExactOrigin),
      'CORS_ORIGINS must be a comma-separated list of origins such as https://console.example.com (scheme, host and optional port; no path, no *).',
    ),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    .refine(
      (entries) => entries.every(isProxyAddress),
      'TRUST_PROXY must be a comma-separated list of proxy addresses or CIDR ranges such as 10.0.0.5,192.168.0.0/16 (or loopback, linklocal, uniquelocal).',
    ),
  FOUR_EYES: z
    .enum(FOUR_EYES_MODES, { error: 'FOUR_EYES must be high, all or off.' })
    .default('high'),
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: 'AUDIT_RETENTION_DAYS must be a whole number of days.' })
    .int('AUDIT_RETENTION_DAYS must be a whole number of days.')
    .min(1, 'AUDIT_RETENTION_DAYS must be at least 1.')
    .max(36_525, 'AUDIT_RETENTION_DAYS must be at most 36525 (a hundred years).')
    .default(AUDIT_RETENTION_DEFAULT_DAYS),
  WEBHOOK_SECRET: webhookSecret('WEBHOOK_SECRET'),
  WEBHOOK_SECRET_PREVIOUS: webhookSecret('WEBHOOK_SECRET_PREVIOUS'),
  DOCUMENT_KEY: documentKey('DOCUMENT_KEY'),
  DOCUMENT_KEY_PREVIOUS: documentKey('DOCUMENT_KEY_PREVIOUS'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL instead of the embedded SQLite file in dataDir. */
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  portalDomain: string;
  /** Further client-portal host names a client-update link may point to (PORTAL_DOMAINS). */
  portalDomains: string[];
  /** Gateway mode: the identity service every API request is forwarded to. */
  upstream: { url: string; apiKey: string; apiKeyHeader: string; timeoutMs: number } | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Browser origins allowed to call the API cross-origin; empty means no CORS at all. */
  corsOrigins: string[];
  /** Reverse proxies whose X-Forwarded-For is believed; empty: the socket's address is the client's. */
  trustProxy: string[];
  /** Which accepted review outcomes need a second reviewer's confirmation (docs/reviews-decisions.md). */
  fourEyes: (typeof FOUR_EYES_MODES)[number];
  /** Audit events older than this many days are pruned (docs/audit.md). */
  auditRetentionDays: number;
  /** Master key of the documents' data keys (DOCUMENT_KEY); absent: a key file in dataDir, SQLite only. */
  documentKey: Buffer | undefined;
  /** The master key before a rotation (DOCUMENT_KEY_PREVIOUS): still unwraps, never wraps. */
  documentKeyPrevious: Buffer | undefined;
  /**
   * Gateway mode: secrets that authenticate the identity service's webhooks, WEBHOOK_SECRET first,
   * then WEBHOOK_SECRET_PREVIOUS during a rotation; empty: POST /api/webhooks/kyc does not exist.
   */
  webhookSecrets: string[];
  /** Where the built console lives; absent in tests that need only the API. */
  staticDir: string | undefined;
};

/** Parses the environment once; a bad value throws an Error whose message names it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => issue.message);
    throw new Error(`Configuration error: ${problems.join(' ')}`);
  }
  const e = parsed.data;
  if (e.WEBHOOK_SECRET_PREVIOUS && !e.WEBHOOK_SECRET) {
    throw new Error(
      'Configuration error: WEBHOOK_SECRET_PREVIOUS is only read beside WEBHOOK_SECRET, the new secret.',
    );
  }
  if (e.KYC_UPSTREAM_URL && !e.KYC_UPSTREAM_API_KEY) {
    throw new Error(
      'Configuration error: KYC_UPSTREAM_API_KEY must be set when KYC_UPSTREAM_URL is set.',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    portalDomain: e.PORTAL_DOMAIN,
    portalDomains: e.PORTAL_DOMAINS,
    upstream:
      e.KYC_UPSTREAM_URL && e.KYC_UPSTREAM_API_KEY
        ? {
            url: e.KYC_UPSTREAM_URL,
            apiKey: e.KYC_UPSTREAM_API_KEY,
            apiKeyHeader: e.KYC_UPSTREAM_API_KEY_HEADER,
            timeoutMs: e.KYC_UPSTREAM_TIMEOUT_MS,
          }
        : undefined,
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS,
    trustProxy: e.TRUST_PROXY,
    fourEyes: e.FOUR_EYES,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    webhookSecrets: e.WEBHOOK_SECRET
      ? [e.WEBHOOK_SECRET, ...(e.WEBHOOK_SECRET_PREVIOUS ? [e.WEBHOOK_SECRET_PREVIOUS] : [])]
      : [],
    documentKey: e.DOCUMENT_KEY,
    documentKeyPrevious: e.DOCUMENT_KEY_PREVIOUS,
    staticDir: path.resolve('dist'),
  };
}
