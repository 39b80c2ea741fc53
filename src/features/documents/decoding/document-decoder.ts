import { runDecodeJob, type DecodeRequest, type DecodeResponse } from './decode-job.ts';

export interface DecodedFile {
  blob: Blob;
  mimeType: string;
}

export interface DocumentDecoder {
  /** The type comes from the bytes, never from what the service declared. */
  decode(base64: string): Promise<DecodedFile>;
  /** Stops the worker, if one was started; pending decodes are rejected. */
  dispose(): void;
}

/** Base64 characters above which decoding leaves the main thread (about 256 KB of bytes). */
export const WORKER_THRESHOLD_CHARS = Math.ceil((256 * 1024 * 4) / 3);

export interface DecoderOptions {
  /** null when the environment has no Worker (jsdom, old browsers): everything decodes inline. */
  createWorker?: (() => Worker) | null;
  workerThreshold?: number;
}

function createDecodeWorker(): Worker {
  return new Worker(new URL('./decode-worker.ts', import.meta.url), { type: 'module' });
}

function toDecodedFile(response: DecodeResponse): DecodedFile {
  if (!response.ok) throw new Error(response.message);
  return {
    blob: new Blob([response.buffer], { type: response.mimeType }),
    mimeType: response.mimeType,
  };
}

export function createDocumentDecoder({
  createWorker = typeof Worker === 'undefined' ? null : createDecodeWorker,
  workerThreshold = WORKER_THRESHOLD_CHARS,
}: DecoderOptions = {}): DocumentDecoder {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (file: DecodedFile) => void; reject: (error: Error) => void }
  >();

  function startWorker(factory: () => Worker): Worker {
    const started = factory();
    started.onmessage = (event: MessageEvent<DecodeResponse>) => {
      const waiting = pending.get(event.data.id);
      if (!waiting) return;
      pending.delete(event.data.id);
      try {
        waiting.resolve(toDecodedFile(event.data));
      } catch (error) {
        waiting.reject(error as Error);
      }
    };
    started.onerror = () => {
      for (const waiting of pending.values())
        waiting.reject(new Error('The document could not be decoded.'));
      pending.clear();
    };
    return started;
  }

  return {
    decode(base64) {
      const request: DecodeRequest = { id: nextId, base64 };
      nextId += 1;
      if (!createWorker || base64.length <= workerThreshold) {
        return new Promise<DecodedFile>((resolve) => {
          resolve(toDecodedFile(runDecodeJob(request)));
        });
      }
      worker ??= startWorker(createWorker);
      const target = worker;
      return new Promise<DecodedFile>((resolve, reject) => {
        pending.set(request.id, { resolve, reject });
        target.postMessage(request);
      });
    },
    dispose() {
      worker?.terminate();
      worker = null;
      for (const waiting of pending.values())
        waiting.reject(new Error('The document viewer was closed.'));
      pending.clear();
    },
  };
}
