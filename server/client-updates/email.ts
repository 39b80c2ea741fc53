export interface ClientUpdateEmailInput {
  /** The portal link's token (portal-token.ts); only its hash is stored. */
  token: string;
  /** A host name, already validated by the contract's hostNameSchema. */
  domain: string;
  subject: string;
  message: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  link: string;
}

/** Where the client portal answers one client-update request. */
export function clientUpdateLink(domain: string, token: string): string {
  return `https://${domain}/portal/${encodeURIComponent(token)}`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The reviewer's message as paragraphs (blank lines) with `<br>` for single line breaks. */
function messageAsHtml(message: string): string {
  return message
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).split('\n').join('<br>\n')}</p>`)
    .join('\n');
}

/** Plain-text and HTML parts carrying the same message and the same portal link. */
export function renderClientUpdateEmail(input: ClientUpdateEmailInput): RenderedEmail {
  const link = clientUpdateLink(input.domain, input.token);
  const message = input.message.replace(/\r\n?/g, '\n');
  const text = [
    message,
    '',
    'Open your secure client portal to respond:',
    link,
    '',
    'If you did not expect this e-mail, you can ignore it.',
    '',
  ].join('\n');
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeHtml(input.subject)}</title></head>`,
    '<body style="font-family: Arial, Helvetica, sans-serif; line-height: 1.5; color: #1a1b1e;">',
    messageAsHtml(message),
    `<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 18px; background: #1c7ed6; color: #ffffff; text-decoration: none; border-radius: 4px;">Open your secure client portal</a></p>`,
    `<p style="font-size: 0.9em; color: #555555;">If the button does not work, copy this address into your browser: ${escapeHtml(link)}</p>`,
    '<p style="font-size: 0.9em; color: #555555;">If you did not expect this e-mail, you can ignore it.</p>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { subject: input.subject, text, html, link };
}
