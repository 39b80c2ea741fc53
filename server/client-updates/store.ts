import type { FastifyRequest } from 'fastify';
import type {
  ClientResponse,
  ClientUpdateConfig,
  ClientUpdateRecord,
  ClientUpdateRequest,
  ContactDecision,
} from '../../contract/client-updates.ts';
import type { Db } from '../db/database.ts';

export interface ClientUpdateAccepted {
  requestId: string;
  recipientEmail: string;
  sentAt: string;
}

/** The identity service's answer, passed on as it came (gateway mode). */
export interface RelayedAnswer {
  relayed: { status: number; body: unknown };
}

/** Adds to the call's audit event what the store found (the recipient, the state). */
type Describe = (detail: Record<string, unknown>) => void;

/**
 * Where client-update requests are kept and how they go out: this server's own tables and mail
 * (embedded, service.ts), or the gateway's tables and the identity service, which sends the
 * e-mail itself (gateway/relayed-client-updates.ts). The plugin has checked the legal entity.
 */
export interface ClientUpdateStore {
  listConfigs(): Promise<ClientUpdateConfig[]>;
  /** Newest first. */
  history(entityId: string): Promise<ClientUpdateRecord[]>;
  requestUpdate(
    entityId: string,
    body: ClientUpdateRequest,
    context: { request: FastifyRequest; requestedBy: string; describe: Describe },
  ): Promise<ClientUpdateAccepted | RelayedAnswer>;
  /** `submitted` → `reviewed`; already reviewed: as it stands; any other state: 409. */
  markReviewed(
    entityId: string,
    requestId: string,
    context: { reviewedBy: string; describe: Describe },
  ): Promise<ClientUpdateRecord>;
  /** Only where this server mails the requests and serves the portal (embedded mode). */
  mailedHere?: {
    resend(
      entityId: string,
      requestId: string,
      context: { request: FastifyRequest; sentBy: string; describe: Describe },
    ): Promise<ClientUpdateAccepted>;
    remind(
      entityId: string,
      requestId: string,
      context: {
        request: FastifyRequest;
        sentBy: string;
        idempotencyKey: string | null;
        describe: Describe;
      },
    ): Promise<ClientUpdateAccepted>;
    response(entityId: string, requestId: string): Promise<ClientResponse>;
    decideContact(
      entityId: string,
      requestId: string,
      decision: ContactDecision,
      context: {
        by: string;
        audit: (transaction: Db, detail: Record<string, unknown>) => Promise<void>;
      },
    ): Promise<ClientResponse>;
  };
}
