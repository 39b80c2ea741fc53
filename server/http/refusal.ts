import { ApiError } from './errors.ts';

/**
 * A control's refusal (a role, four-eyes, a decision already closed): an ApiError that also says
 * why in a word, and what it was about, for the refused call's audit event (docs/audit.md).
 */
export class Refusal extends ApiError {
  constructor(
    statusCode: number,
    message: string,
    readonly reason: string,
    readonly target: { entityId?: string; documentId?: string } = {},
  ) {
    super(statusCode, message);
    this.name = 'Refusal';
  }
}
