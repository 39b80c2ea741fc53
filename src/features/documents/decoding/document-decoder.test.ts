import { runDecodeJob, type DecodeRequest } from './decode-job.ts';
import { createDocumentDecoder } from './document-decoder.ts';

/** Stands in for the module worker jsdom lacks: same job, answered asynchronously. */
class FakeDecodeWorker {
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  readonly received: DecodeRequest[] = [];
  terminated = false;
  answer = true;

  postMessage(request: DecodeRequest) {
    this.received.push(request);
    if (!this.answer) return;
    queueMicrotask(() => {
      this.onmessage?.(new MessageEvent('message', { data: runDecodeJob(request) }));
    });
  }

  terminate() {
    this.terminated = true;
  }
}

const base64Of = (text: string) => Buffer.from(text).toString('base64');

test('decodes small files inline without starting a worker', async () => {
  const createWorker = vi.fn(() => new FakeDecodeWorker() as unknown as Worker);
  const decoder = createDocumentDecoder({ createWorker, workerThreshold: 100 });
  const file = await decoder.decode(base64Of('%PDF-1.7 small'));
  expect(createWorker).not.toHaveBeenCalled();
  expect(file.mimeType).toBe('application/pdf');
  expect(file.blob.type).toBe('application/pdf');
  expect(await file.blob.text()).toBe('%PDF-1.7 small');
});

test('sends large files to the worker and builds the blob from the transferred buffer', async () => {
  const worker = new FakeDecodeWorker();
  const decoder = createDocumentDecoder({
    createWorker: () => worker as unknown as Worker,
    workerThreshold: 8,
  });
  const content = `%PDF-1.7 ${'x'.repeat(100)}`;
  const file = await decoder.decode(base64Of(content));
  expect(worker.received).toHaveLength(1);
  expect(file.blob.type).toBe('application/pdf');
  expect(await file.blob.text()).toBe(content);
});

test('decodes inline when the environment has no Worker', async () => {
  const decoder = createDocumentDecoder({ createWorker: null, workerThreshold: 0 });
  const file = await decoder.decode(base64Of('hello'));
  expect(await file.blob.text()).toBe('hello');
});

test('rejects with the job message when the file is not base64', async () => {
  const decoder = createDocumentDecoder({ createWorker: null });
  await expect(decoder.decode('@@@')).rejects.toThrow('not valid base64');
});

test('dispose terminates the worker and rejects what is still pending', async () => {
  const worker = new FakeDecodeWorker();
  worker.answer = false;
  const decoder = createDocumentDecoder({
    createWorker: () => worker as unknown as Worker,
    workerThreshold: 0,
  });
  const pending = decoder.decode(base64Of('waiting'));
  decoder.dispose();
  await expect(pending).rejects.toThrow('closed');
  expect(worker.terminated).toBe(true);
});
