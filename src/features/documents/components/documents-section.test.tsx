import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { MockInstance } from 'vitest';
import type { DocumentDetail } from '../../../../contract/entities.ts';
import { buildDocument } from '../../../../contract/testing/factories.ts';
import { apiError, apiHandler, envelope, vendorHandlers } from '../../../testing/handlers.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderRoute } from '../../../testing/render.tsx';
import {
  VENDOR_DOCUMENT_OWNER,
  VENDOR_DOCUMENT_TEXT,
} from '../../../../contract/testing/vendor-samples.ts';
import { entityQueries } from '../../../lib/entity-queries.ts';
import { createDocumentDecoder, type DocumentDecoder } from '../decoding/document-decoder.ts';
import { DocumentsSection } from './documents-section.tsx';

// Whole pages with many role queries run slowly on a shared CI machine.
vi.setConfig({ testTimeout: 20_000 });

const ENTITY_ID = '11111111-1111-4111-8111-111111111111';
const PDF_BYTES = new TextEncoder().encode('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
const PNG_BYTES = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

const base64Of = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

function detailOf(
  metadata: ReturnType<typeof buildDocument>,
  bytes: Uint8Array,
  mimeType: string,
): DocumentDetail {
  return { ...metadata, mimeType, fileSize: bytes.byteLength, file: base64Of(bytes) };
}

let createdBlobs: Blob[] = [];
let createSpy: MockInstance<typeof URL.createObjectURL>;
let revokeSpy: MockInstance<typeof URL.revokeObjectURL>;

beforeEach(() => {
  createdBlobs = [];
  createSpy = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    createdBlobs.push(blob as Blob);
    return `blob:document-${createdBlobs.length}`;
  });
  revokeSpy = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

afterEach(() => {
  createSpy.mockRestore();
  revokeSpy.mockRestore();
});

function renderSection(createDecoder?: () => DocumentDecoder) {
  return renderRoute(
    <DocumentsSection
      listQuery={entityQueries.documents(ENTITY_ID)}
      documentQuery={entityQueries.document}
      {...(createDecoder ? { createDecoder } : {})}
    />,
  );
}

function serveList(documents: ReturnType<typeof buildDocument>[]) {
  server.use(apiHandler('GET /api/v2/entities/:id/documents', () => envelope(documents)));
}

function serveDetail(detail: DocumentDetail) {
  server.use(apiHandler('GET /api/v2/documents/:id', () => envelope(detail)));
}

test('lists each document with its type, received date, approval in words and size', async () => {
  serveList([
    buildDocument({
      fileName: 'utility-bill.pdf',
      type: 'Proof of Address',
      dateReceived: '2026-02-01 10:30:00',
      documentApproved: true,
      fileSize: 2048,
    }),
    buildDocument({
      fileName: 'payslips.png',
      type: 'Proof of Wealth',
      dateReceived: '2026-03-05 08:00:00',
      documentApproved: false,
      fileSize: 3 * 1024 * 1024,
    }),
  ]);
  renderSection();
  const firstRow = (await screen.findByText('utility-bill.pdf')).closest('tr');
  if (!firstRow) throw new Error('no row');
  expect(within(firstRow).getByText('Proof of Address')).toBeInTheDocument();
  expect(within(firstRow).getByText('1 Feb 2026, 10:30 UTC')).toBeInTheDocument();
  expect(within(firstRow).getByText('Approved')).toBeInTheDocument();
  expect(within(firstRow).getByText('2.0 KB')).toBeInTheDocument();
  const secondRow = screen.getByText('payslips.png').closest('tr');
  if (!secondRow) throw new Error('no row');
  expect(within(secondRow).getByText('Not approved')).toBeInTheDocument();
  expect(within(secondRow).getByText('3.0 MB')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'View utility-bill.pdf' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'View payslips.png' })).toBeInTheDocument();
});

test('on a phone each document is a card of a list, not a table row, and opens the viewer', async () => {
  const desktop = Object.getOwnPropertyDescriptor(window, 'matchMedia');
  // Below the sm breakpoint, where the six-column table scrolled sideways at 390 px.
  const phone = '(max-width: 47.99em)';
  const listeners = { addEventListener: () => undefined, removeEventListener: () => undefined };
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({ matches: query === phone, media: query, ...listeners }),
  });
  try {
    const bill = buildDocument({
      fileName: 'utility-bill.pdf',
      type: 'Proof of Address',
      dateReceived: '2026-02-01',
      documentApproved: true,
      fileSize: 2048,
    });
    serveList([bill]);
    serveDetail(detailOf(bill, PDF_BYTES, 'application/pdf'));
    const { user } = renderSection(() => createDocumentDecoder({ createWorker: null }));
    const list = await screen.findByRole('list', { name: 'Documents' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const [card] = within(list).getAllByRole('listitem');
    if (!card) throw new Error('no card');
    expect(card).toHaveTextContent('utility-bill.pdf');
    expect(card).toHaveTextContent('Proof of Address · Received 1 Feb 2026 · 2.0 KB');
    expect(within(card).getByText('Approved')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'View utility-bill.pdf' }));
    const viewer = await screen.findByRole('dialog', { name: 'utility-bill.pdf' });
    expect(within(viewer).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(within(viewer).getByRole('button', { name: 'Download' })).toBeInTheDocument();
  } finally {
    if (desktop) Object.defineProperty(window, 'matchMedia', desktop);
  }
});

test('says so when there are no documents', async () => {
  serveList([]);
  renderSection();
  expect(await screen.findByText('No supporting documents')).toBeInTheDocument();
});

test('shows the server message and retries the list', async () => {
  let calls = 0;
  server.use(
    apiHandler('GET /api/v2/entities/:id/documents', () => {
      calls += 1;
      return calls === 1
        ? apiError(500, 'The documents store is unavailable.')
        : envelope([buildDocument({ fileName: 'after-retry.pdf' })]);
    }),
  );
  const { user } = renderSection();
  expect(await screen.findByRole('alert')).toHaveTextContent('The documents store is unavailable.');
  await user.click(screen.getByRole('button', { name: 'Retry' }));
  expect(await screen.findByText('after-retry.pdf')).toBeInTheDocument();
});

test('shows download progress, then the PDF inline with its approval and received date', async () => {
  const metadata = buildDocument({
    fileName: 'certificate.pdf',
    type: 'Certificate of Incorporation',
    documentApproved: true,
    dateReceived: '2026-04-02 09:15:00',
  });
  serveList([metadata]);
  const body = new TextEncoder().encode(
    JSON.stringify(envelope(detailOf(metadata, PDF_BYTES, 'application/pdf'))),
  );
  const half = Math.floor(body.byteLength / 2);
  let releaseRest: () => void = () => undefined;
  const rest = new Promise<void>((resolve) => {
    releaseRest = resolve;
  });
  server.use(
    http.get('/api/v2/documents/:id', () => {
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(body.slice(0, half));
          await rest;
          controller.enqueue(body.slice(half));
          controller.close();
        },
      });
      return new HttpResponse(stream, {
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.byteLength) },
      });
    }),
  );
  const { user } = renderSection();
  await user.click(await screen.findByRole('button', { name: 'View certificate.pdf' }));

  const dialog = await screen.findByRole('dialog', { name: 'certificate.pdf' });
  const progress = await within(dialog).findByRole('progressbar', {
    name: 'Downloading certificate.pdf',
  });
  const expectedPercent = Math.floor((half / body.byteLength) * 100);
  expect(progress).toHaveAttribute('aria-valuenow', String(expectedPercent));
  expect(within(dialog).getByText(`${expectedPercent}%`)).toBeInTheDocument();

  releaseRest();
  const frame = await within(dialog).findByTitle('Preview of certificate.pdf');
  expect(frame.tagName).toBe('IFRAME');
  expect(frame).toHaveAttribute('src', 'blob:document-1#toolbar=0&navpanes=0');
  expect(within(dialog).getByText('Approved')).toBeInTheDocument();
  expect(within(dialog).getByText('Received 2 Apr 2026, 09:15 UTC')).toBeInTheDocument();
  const [blob] = createdBlobs;
  expect(blob?.type).toBe('application/pdf');
  expect(Array.from(new Uint8Array(await (blob as Blob).arrayBuffer()))).toEqual(
    Array.from(PDF_BYTES),
  );
});

test('sniffs the type when the response gives a generic one, and zooms and rotates images', async () => {
  const metadata = buildDocument({ fileName: 'passport-scan', type: 'Proof of Identity' });
  serveList([metadata]);
  serveDetail(detailOf(metadata, PNG_BYTES, 'application/octet-stream'));
  const { user } = renderSection();
  await user.click(await screen.findByRole('button', { name: 'View passport-scan' }));

  const dialog = await screen.findByRole('dialog', { name: 'passport-scan' });
  const image = await within(dialog).findByRole('img', { name: 'passport-scan' });
  expect(createdBlobs[0]?.type).toBe('image/png');
  expect(Array.from(new Uint8Array(await (createdBlobs[0] as Blob).arrayBuffer()))).toEqual(
    Array.from(PNG_BYTES),
  );

  const toolbar = within(dialog).getByRole('toolbar', { name: 'Image controls' });
  const zoomIn = within(toolbar).getByRole('button', { name: 'Zoom in' });
  const zoomOut = within(toolbar).getByRole('button', { name: 'Zoom out' });
  await user.click(zoomIn);
  expect(toolbar).toHaveTextContent('125%');
  expect(image).toHaveAttribute('data-zoom', '1.25');
  await user.click(zoomOut);
  await user.click(zoomOut);
  expect(toolbar).toHaveTextContent('80%');
  await user.click(within(toolbar).getByRole('button', { name: 'Rotate' }));
  expect(image).toHaveAttribute('data-rotation', '90');
  await user.click(within(toolbar).getByRole('button', { name: 'Reset zoom' }));
  expect(image).toHaveAttribute('data-zoom', '1');
  expect(image).toHaveAttribute('data-rotation', '0');
});

test('downloads the original bytes under a sanitised name', async () => {
  const metadata = buildDocument({ fileName: '../private/sta:tement?.pdf' });
  serveList([metadata]);
  serveDetail(detailOf(metadata, PDF_BYTES, 'application/pdf'));
  const clicked: { href: string; download: string }[] = [];
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
  try {
    const { user } = renderSection();
    await user.click(
      await screen.findByRole('button', { name: 'View ../private/sta:tement?.pdf' }),
    );
    await screen.findByTitle('Preview of ../private/sta:tement?.pdf');
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect(clicked).toEqual([{ href: 'blob:document-1', download: 'private_sta_tement_.pdf' }]);
  } finally {
    click.mockRestore();
  }
});

test('the real service’s document: no MIME type or size; the bytes decide, Download adds .pdf', async () => {
  server.use(...vendorHandlers);
  const clicked: string[] = [];
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this.download);
  });
  try {
    const { user } = renderRoute(
      <DocumentsSection
        listQuery={entityQueries.documents(VENDOR_DOCUMENT_OWNER)}
        documentQuery={entityQueries.document}
      />,
    );
    const row = (await screen.findByText('Supporting document example 3')).closest('tr');
    if (!row) throw new Error('no row');
    expect(within(row).getByText('Proof of Address')).toBeInTheDocument();
    expect(within(row).getByText('Not approved')).toBeInTheDocument();
    expect(within(row).getByText('—')).toBeInTheDocument();
    await user.click(
      within(row).getByRole('button', { name: 'View Supporting document example 3' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Supporting document example 3' });
    const frame = await within(dialog).findByTitle('Preview of Supporting document example 3');
    expect(frame.tagName).toBe('IFRAME');
    expect(createdBlobs[0]?.type).toBe('application/pdf');
    expect(await (createdBlobs[0] as Blob).text()).toBe(VENDOR_DOCUMENT_TEXT);
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(clicked).toEqual(['Supporting document example 3.pdf']);
  } finally {
    click.mockRestore();
  }
});

test('a stored file that is not a document says what it is and offers only a download', async () => {
  const metadata = buildDocument({ fileName: 'certificate.pdf', type: 'Other' });
  serveList([metadata]);
  // A legacy row: declared a PDF, but its bytes are a Windows executable.
  const executable = new TextEncoder().encode(
    'MZ\u0090\u0000 This program cannot be run in DOS mode',
  );
  serveDetail(detailOf(metadata, executable, 'application/pdf'));
  const { user } = renderSection();
  await user.click(await screen.findByRole('button', { name: 'View certificate.pdf' }));
  const dialog = await screen.findByRole('dialog', { name: 'certificate.pdf' });
  expect(await within(dialog).findByText('This file type cannot be shown')).toBeInTheDocument();
  expect(
    within(dialog).getByText(/It is a Windows executable, not one of the document types/),
  ).toBeInTheDocument();
  expect(within(dialog).queryByTitle('Preview of certificate.pdf')).not.toBeInTheDocument();
  expect(within(dialog).queryByText(/another program/)).not.toBeInTheDocument();
  expect(within(dialog).getByRole('button', { name: 'Download' })).toBeEnabled();
});

test('a TIFF, which browsers cannot draw, is offered as a download', async () => {
  const metadata = buildDocument({ fileName: 'scan.tif', type: 'Other' });
  serveList([metadata]);
  serveDetail(detailOf(metadata, new Uint8Array([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]), 'image/tiff'));
  const { user } = renderSection();
  await user.click(await screen.findByRole('button', { name: 'View scan.tif' }));
  expect(await screen.findByText('This TIFF image cannot be shown here')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled();
});

test('shows the server message when the document cannot be loaded', async () => {
  const metadata = buildDocument({ fileName: 'gone.pdf' });
  serveList([metadata]);
  server.use(
    apiHandler('GET /api/v2/documents/:id', () => apiError(404, 'No document with ID gone.')),
  );
  const { user } = renderSection();
  await user.click(await screen.findByRole('button', { name: 'View gone.pdf' }));
  const dialog = await screen.findByRole('dialog', { name: 'gone.pdf' });
  expect(await within(dialog).findByRole('alert')).toHaveTextContent('No document with ID gone.');
  expect(within(dialog).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  expect(within(dialog).getByRole('button', { name: 'Download' })).toBeDisabled();
});

test('closing the viewer revokes the object URL and disposes the decoder', async () => {
  const metadata = buildDocument({ fileName: 'bank-statement.pdf' });
  serveList([metadata]);
  serveDetail(detailOf(metadata, PDF_BYTES, 'application/pdf'));
  const disposed = vi.fn();
  const createDecoder = () => {
    const decoder = createDocumentDecoder({ createWorker: null });
    return {
      decode: (base64: string) => decoder.decode(base64),
      dispose: () => {
        disposed();
        decoder.dispose();
      },
    };
  };
  const { user, queryClient } = renderSection(createDecoder);
  await user.click(await screen.findByRole('button', { name: 'View bank-statement.pdf' }));
  await screen.findByTitle('Preview of bank-statement.pdf');
  expect(revokeSpy).not.toHaveBeenCalled();
  // Once the Blob holds the bytes, the cached base64 copy is dropped.
  expect(queryClient.getQueryData<DocumentDetail>(['documents', metadata.documentId])?.file).toBe(
    '',
  );

  await user.click(screen.getByRole('button', { name: 'Close viewer' }));
  expect(revokeSpy).toHaveBeenCalledWith('blob:document-1');
  expect(disposed).toHaveBeenCalled();
});
