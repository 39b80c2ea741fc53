/** Reasons that mean the mail server could not be reached or did not reply in time. */
const UNREACHABLE =
  /ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|timed? ?out|Greeting never received|connection refused|connect/i;
const SIGN_IN_REFUSED = /\b535\b|Invalid login|authentication|Bad login/i;
const OUTBOX = /outbox/i;

/**
 * A reviewer's sentence for why a client-update e-mail was not delivered; the mail server's own
 * reason (`connect ECONNREFUSED 127.0.0.1:1`) stays in the record and the server log.
 */
export function mailFailureMessage(reason: string | null): string {
  if (reason && OUTBOX.test(reason)) return 'The e-mail could not be saved to the outbox.';
  if (reason && SIGN_IN_REFUSED.test(reason))
    return 'The e-mail could not be sent: the mail server refused this desk’s sign-in.';
  if (reason && UNREACHABLE.test(reason))
    return 'The e-mail could not be sent: the mail server did not answer.';
  return 'The e-mail could not be sent: the mail server refused it.';
}
