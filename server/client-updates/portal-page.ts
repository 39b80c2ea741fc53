import { DOCUMENT_TYPES, MAX_DOCUMENT_BYTES } from '../../contract/entities.ts';
import { ACCEPTED_DOCUMENT_TYPES_TEXT } from '../../contract/file-type.ts';
import { escapeHtml } from './email.ts';
import type { PortalView } from './portal.ts';

/**
 * The portal page's own policy, stricter than the console's: no inline script or style, nothing
 * from elsewhere, answers only to this origin.
 */
export const PORTAL_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join(';');

function page(title: string, body: string, head = ''): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="stylesheet" href="/portal-assets/portal.css">',
    head,
    '</head>',
    `<body><main>${body}</main></body>`,
    '</html>',
    '',
  ].join('\n');
}

/** Wrong, used and expired links alike: which one it was is not said. */
export function linkGonePage(): string {
  return page(
    'This link no longer works',
    [
      '<h1>This link no longer works</h1>',
      '<p>It may have been used already, or it has expired. Ask the person who sent it to you for a new link.</p>',
    ].join('\n'),
  );
}

function paragraphs(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).split('\n').join('<br>')}</p>`)
    .join('\n');
}

function contactInput(
  name: 'email' | 'phone' | 'address',
  label: string,
  type: string,
  current: string | null,
): string {
  const autocomplete = { email: 'email', phone: 'tel', address: 'street-address' }[name];
  return [
    `<label for="contact-${name}">${label}</label>`,
    `<p class="hint" id="contact-${name}-now">On record: ${current ? escapeHtml(current) : 'nothing'}</p>`,
    `<input id="contact-${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" aria-describedby="contact-${name}-now contact-${name}-error">`,
    `<p class="error" id="contact-${name}-error" role="alert"></p>`,
  ].join('\n');
}

/** The page for a link that works: what is asked, documents, corrections, one submission. */
export function portalPage(view: PortalView): string {
  const heading = view.configName || view.subject;
  const typeOptions = DOCUMENT_TYPES.map(
    (type) => `<option value="${escapeHtml(type)}">${escapeHtml(type)}</option>`,
  ).join('');
  const expires = new Date(view.expiresAt).toUTCString();
  const megabytes = Math.round(MAX_DOCUMENT_BYTES / 1024 / 1024);
  return page(
    heading,
    [
      view.companyName ? `<p class="company">${escapeHtml(view.companyName)}</p>` : '',
      `<h1>${escapeHtml(heading)}</h1>`,
      view.configDescription ? `<p class="lead">${escapeHtml(view.configDescription)}</p>` : '',
      `<section aria-labelledby="message-title"><h2 id="message-title">${escapeHtml(view.subject)}</h2>${paragraphs(view.message)}</section>`,
      '<form id="portal-form" novalidate>',
      '<fieldset><legend>Documents</legend>',
      `<p class="hint" id="documents-hint">${escapeHtml(ACCEPTED_DOCUMENT_TYPES_TEXT)}, up to ${megabytes} MB each.</p>`,
      '<label for="document-type">Document type</label>',
      `<select id="document-type">${typeOptions}</select>`,
      '<label for="document-files">Files</label>',
      '<input id="document-files" type="file" multiple accept=".pdf,.jpg,.jpeg,.png,.tif,.tiff,.webp,.heic,.heif,application/pdf,image/*" aria-describedby="documents-hint documents-error">',
      '<ul id="document-list" aria-live="polite"></ul>',
      '<p class="error" id="documents-error" role="alert"></p>',
      '</fieldset>',
      '<fieldset><legend>Your contact details</legend>',
      '<p class="hint">Fill in only what has changed.</p>',
      contactInput('email', 'E-mail address', 'email', view.contact.email),
      contactInput('phone', 'Phone number', 'tel', view.contact.phone),
      contactInput('address', 'Address', 'text', view.contact.address),
      '</fieldset>',
      '<progress id="upload-progress" max="100" value="0" hidden aria-label="Upload progress"></progress>',
      '<p id="status" role="status" aria-live="polite"></p>',
      '<button id="submit" type="submit">Send</button>',
      `<p class="hint">You can send your answer once. This link works until ${escapeHtml(expires)}.</p>`,
      '</form>',
    ].join('\n'),
    [
      `<meta name="portal-nonce" content="${escapeHtml(view.nonce)}">`,
      '<script src="/portal-assets/portal.js" defer></script>',
    ].join('\n'),
  );
}

export const PORTAL_CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;line-height:1.5;color:#1a1b1e;background:#f8f9fa}
main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem 3rem;background:#fff;min-height:100vh}
h1{font-size:1.5rem;margin:.25rem 0 .5rem}
h2{font-size:1.1rem;margin:1rem 0 .25rem}
.company{margin:0;color:#495057;font-weight:600}
.lead{color:#343a40}
fieldset{border:1px solid #ced4da;border-radius:6px;margin:1.25rem 0;padding:.75rem 1rem 1rem}
legend{font-weight:600;padding:0 .25rem}
label{display:block;font-weight:600;margin-top:.75rem}
input,select{display:block;width:100%;font:inherit;padding:.6rem .7rem;margin-top:.25rem;border:1px solid #868e96;border-radius:4px;min-height:44px}
input:focus,select:focus,button:focus{outline:3px solid #1c7ed6;outline-offset:2px}
.hint{color:#495057;font-size:.9rem;margin:.25rem 0}
.error{color:#c92a2a;font-size:.9rem;margin:.25rem 0;min-height:0}
.error:empty{display:none}
ul{padding-left:1.2rem}
progress{width:100%;height:1rem;margin-top:1rem}
button{font:inherit;font-weight:600;color:#fff;background:#1864ab;border:0;border-radius:4px;padding:.75rem 1.5rem;min-height:44px;margin-top:1rem;width:100%;cursor:pointer}
button.remove{width:auto;margin:0 0 0 .5rem;padding:.25rem .75rem;min-height:32px;background:#fff;color:#1864ab;border:1px solid #1864ab}
button:disabled{background:#868e96;cursor:default}
#status{font-weight:600}
@media (min-width:600px){button{width:auto}main{margin-top:2rem;min-height:0;border-radius:8px;border:1px solid #dee2e6}}
`;

/** The page's script: reads the files, sends the answer once with its nonce, shows progress. */
export const PORTAL_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('portal-form');
  if (!form) return;
  var nonce = document.querySelector('meta[name="portal-nonce"]').getAttribute('content');
  var files = document.getElementById('document-files');
  var type = document.getElementById('document-type');
  var list = document.getElementById('document-list');
  var progress = document.getElementById('upload-progress');
  var status = document.getElementById('status');
  var button = document.getElementById('submit');
  var maxBytes = ${MAX_DOCUMENT_BYTES};
  var chosen = [];
  function setError(id, text) { var el = document.getElementById(id); if (el) el.textContent = text || ''; }
  function clearErrors() {
    ['documents-error', 'contact-email-error', 'contact-phone-error', 'contact-address-error'].forEach(function (id) { setError(id, ''); });
  }
  files.addEventListener('change', function () {
    Array.prototype.forEach.call(files.files, function (file) { chosen.push({ file: file, type: type.value }); });
    files.value = '';
    render();
  });
  function render() {
    list.textContent = '';
    chosen.forEach(function (item, index) {
      var li = document.createElement('li');
      li.textContent = item.file.name + ' (' + item.type + ', ' + Math.max(1, Math.round(item.file.size / 1024)) + ' KB) ';
      var remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'remove';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', 'Remove ' + item.file.name);
      remove.addEventListener('click', function () { chosen.splice(index, 1); render(); });
      li.appendChild(remove);
      list.appendChild(li);
    });
  }
  function base64Of(file) {
    return new Promise(function (resolve, reject) {
      var reader = new FileReader();
      reader.onload = function () { var url = String(reader.result); resolve(url.slice(url.indexOf(',') + 1)); };
      reader.onerror = function () { reject(reader.error); };
      reader.readAsDataURL(file);
    });
  }
  function fieldOf(path) {
    if (path.indexOf('contact.') === 0) return 'contact-' + path.split('.')[1] + '-error';
    return 'documents-error';
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    clearErrors();
    var tooLarge = chosen.filter(function (item) { return item.file.size > maxBytes; });
    if (tooLarge.length > 0) { setError('documents-error', tooLarge[0].file.name + ' is larger than ' + Math.round(maxBytes / 1048576) + ' MB.'); return; }
    var contact = {};
    ['email', 'phone', 'address'].forEach(function (name) {
      var value = document.getElementById('contact-' + name).value.trim();
      if (value) contact[name] = value;
    });
    if (chosen.length === 0 && Object.keys(contact).length === 0) { setError('documents-error', 'Add a document or a correction before sending.'); return; }
    button.disabled = true;
    status.textContent = 'Preparing your files…';
    Promise.all(chosen.map(function (item) { return base64Of(item.file); })).then(function (encoded) {
      var body = { documents: chosen.map(function (item, i) { return { fileName: item.file.name, type: item.type, file: encoded[i] }; }) };
      if (Object.keys(contact).length > 0) body.contact = contact;
      var xhr = new XMLHttpRequest();
      xhr.open('POST', '/api' + location.pathname);
      xhr.setRequestHeader('Content-Type', 'application/json');
      xhr.setRequestHeader('X-Portal-Nonce', nonce);
      progress.hidden = false;
      progress.value = 0;
      status.textContent = 'Sending…';
      xhr.upload.onprogress = function (e) { if (e.lengthComputable) { progress.value = Math.round((e.loaded / e.total) * 100); status.textContent = 'Sending… ' + progress.value + '%'; } };
      xhr.onload = function () {
        var answer = {};
        try { answer = JSON.parse(xhr.responseText); } catch (e) { answer = {}; }
        if (xhr.status === 201) {
          form.hidden = true;
          var done = document.createElement('section');
          var h = document.createElement('h2'); h.textContent = 'Thank you: your answer was sent';
          var p = document.createElement('p'); p.textContent = 'We will review it. This link cannot be used again.';
          done.appendChild(h); done.appendChild(p);
          form.parentNode.appendChild(done);
          h.setAttribute('tabindex', '-1'); h.focus();
          return;
        }
        progress.hidden = true;
        button.disabled = false;
        status.textContent = answer.message || 'Your answer could not be sent. Try again.';
        (answer.errors || []).forEach(function (error) {
          var id = fieldOf(String(error.field || ''));
          var el = document.getElementById(id);
          if (el) el.textContent = (el.textContent ? el.textContent + ' ' : '') + error.message;
        });
        if (xhr.status === 404) location.reload();
      };
      xhr.onerror = function () { progress.hidden = true; button.disabled = false; status.textContent = 'The connection failed. Try again.'; };
      xhr.send(JSON.stringify(body));
    }, function () { button.disabled = false; status.textContent = 'A file could not be read.'; });
  });
})();
`;
