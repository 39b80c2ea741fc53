import { documentMetadataSchema } from '../../../../contract/entities.ts';
import {
  ApiError,
  currentToken,
  errorFromResponse,
  handleUnauthorized,
} from '../../../lib/api-client.ts';
import type { DecodedFile } from './document-decoder.ts';
import {
  UNREADABLE,
  type DocumentDetailWithoutFile,
  type FetchDocumentMessage,
  type FetchDocumentRequest,
  type FetchDocumentResult,
} from './fetch-document-job.ts';

export interface FetchedDocument {
  detail: DocumentDetailWithoutFile;
  file: DecodedFile;
}

export interface DocumentFetcher {
  /** Fetches and decodes one document in the worker; a 401 runs the re-sign-in and retries once. */
  fetch(
    documentId: string,
    onProgress: (loaded: number, total: number | null) => void,
  ): Promise<FetchedDocument>;
  dispose(): void;
}

function createFetchWorker(): Worker {
  return new Worker(new URL('./fetch-document-worker.ts', import.meta.url), { type: 'module' });
}

export function documentUrl(documentId: string, base: string): string {
  return new URL(`/api/v2/documents/${encodeURIComponent(documentId)}`, base).href;
}

/** Documents above this size are fetched in the worker; smaller ones keep the apiRequest path. */
export const FETCH_IN_WORKER_ABOVE_BYTES = 1024 * 1024;

export function createDocumentFetcher({
  createWorker = createFetchWorker,
  base = location.href,
}: { createWorker?: () => Worker; base?: string } = {}): DocumentFetcher {
  const factory = createWorker;
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<
    number,
    {
      onProgress: (loaded: number, total: number | null) => void;
      settle: (result: FetchDocumentResult | Error) => void;
    }
  >();

  function started(): Worker {
    if (worker) return worker;
    worker = factory();
    worker.onmessage = (event: MessageEvent<FetchDocumentMessage>) => {
      const message = event.data;
      const waiting = pending.get(message.id);
      if (!waiting) return;
      if (message.kind === 'progress') {
        waiting.onProgress(message.loaded, message.total);
        return;
      }
      pending.delete(message.id);
      waiting.settle(message);
    };
    worker.onerror = () => {
      for (const waiting of pending.values())
        waiting.settle(new ApiError(0, 'The document could not be loaded.'));
      pending.clear();
    };
    return worker;
  }

  function runOnce(
    documentId: string,
    onProgress: (loaded: number, total: number | null) => void,
  ): Promise<FetchDocumentResult> {
    const request: FetchDocumentRequest = {
      id: nextId,
      url: documentUrl(documentId, base),
      token: currentToken(),
    };
    nextId += 1;
    const target = started();
    return new Promise((resolve, reject) => {
      pending.set(request.id, {
        onProgress,
        settle: (result) => {
          if (result instanceof Error) reject(result);
          else resolve(result);
        },
      });
      target.postMessage(request);
    });
  }

  return {
    async fetch(documentId, onProgress) {
      let result = await runOnce(documentId, onProgress);
      if (result.kind === 'unauthorized' && (await handleUnauthorized())) {
        result = await runOnce(documentId, onProgress);
      }
      if (result.kind === 'unauthorized') throw errorFromResponse(401, undefined);
      if (result.kind === 'refused') throw errorFromResponse(result.status, result.body);
      if (result.kind === 'failed') throw new ApiError(result.status, result.message);
      // Checked here rather than in the worker, which is kept free of zod.
      const detail = documentMetadataSchema.safeParse(result.detail);
      if (!detail.success) throw new ApiError(0, UNREADABLE);
      return { detail: detail.data, file: { blob: result.blob, mimeType: result.mimeType } };
    },
    dispose() {
      worker?.terminate();
      worker = null;
      for (const waiting of pending.values())
        waiting.settle(new ApiError(0, 'The document viewer was closed.'));
      pending.clear();
    },
  };
}
