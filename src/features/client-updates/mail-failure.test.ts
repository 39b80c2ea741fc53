import { mailFailureMessage } from './mail-failure.ts';

test.each([
  [
    'The mail server did not accept the message: connect ECONNREFUSED 127.0.0.1:1',
    'The e-mail could not be sent: the mail server did not answer.',
  ],
  ['Greeting never received', 'The e-mail could not be sent: the mail server did not answer.'],
  [
    'Invalid login: 535 Authentication failed',
    'The e-mail could not be sent: the mail server refused this desk’s sign-in.',
  ],
  [
    "Can't send mail - all recipients were rejected: 550 Mailbox unavailable",
    'The e-mail could not be sent: the mail server refused it.',
  ],
  [
    'The message could not be written to the outbox.',
    'The e-mail could not be saved to the outbox.',
  ],
  [null, 'The e-mail could not be sent: the mail server refused it.'],
])('%s → %s', (reason, message) => {
  expect(mailFailureMessage(reason)).toBe(message);
});
