// No zod here (the worker would bundle a second copy): document-fetcher.ts validates the detail.
import type { DocumentDetail } from '../../../../contract/entities.ts';
import { decodeBase64 } from './decode-base64.ts';
import { identifyFileType } from '../../../../contract/file-type.ts';

export interface FetchDocumentRequest {
  id: number;
  url: string;
  token: string | null;
}

/** The detail without its base64: the bytes travel separately, as a Blob made in the worker. */
export type DocumentDetailWithoutFile = Omit<DocumentDetail, 'file'>;

export type FetchDocumentResult =
  | {
      id: number;
      kind: 'done';
      /** As it came: the main thread checks it against the contract. */
      detail: Record<string, unknown>;
      /** Made here, off the main thread: posting a Blob passes a handle, not its bytes. */
      blob: Blob;
      mimeType: string;
    }
  | { id: number; kind: 'unauthorized' }
  /** A non-2xx answer with its parsed body, for the main thread's errorFromResponse. */
  | { id: number; kind: 'refused'; status: number; body: unknown }
  | { id: number; kind: 'failed'; status: number; message: string };

export type FetchDocumentMessage =
  FetchDocumentResult | { id: number; kind: 'progress'; loaded: number; total: number | null };

export const UNREADABLE = 'The server answered in a form this console does not understand.';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the document worker does: fetch, parse, validate and decode, so the main thread only gets bytes. */
export async function runFetchDocumentJob(
  request: FetchDocumentRequest,
  onProgress: (loaded: number, total: number | null) => void,
  fetchImpl: typeof fetch = fetch,
): Promise<FetchDocumentResult> {
  const { id } = request;
  const headers = new Headers({ Accept: 'application/json' });
  if (request.token) headers.set('Authorization', `Bearer ${request.token}`);
  let response: Response;
  try {
    response = await fetchImpl(request.url, { headers });
  } catch {
    return {
      id,
      kind: 'failed',
      status: 0,
      message: 'Cannot reach the server. Check your connection and try again.',
    };
  }
  if (response.status === 401 && request.token) return { id, kind: 'unauthorized' };
  try {
    const text = await readBody(response, onProgress);
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) return { id, kind: 'refused', status: response.status, body: json };
    const data = isRecord(json) ? json.data : undefined;
    if (!isRecord(data) || typeof data.file !== 'string') {
      return { id, kind: 'failed', status: 0, message: UNREADABLE };
    }
    const { file, ...detail } = data;
    const bytes = decodeBase64(file);
    const { mimeType } = identifyFileType(bytes);
    // The Blob copies the bytes here, in the worker; the main thread never touches them.
    return { id, kind: 'done', detail, blob: new Blob([bytes], { type: mimeType }), mimeType };
  } catch (error) {
    const message = error instanceof Error ? error.message : 'The document could not be decoded.';
    return { id, kind: 'failed', status: 0, message };
  }
}

/** One decode of the whole body at the end: cheaper than decoding and joining per chunk. */
async function readBody(
  response: Response,
  onProgress: (loaded: number, total: number | null) => void,
): Promise<string> {
  if (!response.body) return response.text();
  const total = Number(response.headers.get('Content-Length')) || null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress(loaded, total);
  }
  const body = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(body);
}
