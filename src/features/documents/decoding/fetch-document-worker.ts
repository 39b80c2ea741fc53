import { runFetchDocumentJob, type FetchDocumentRequest } from './fetch-document-job.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<FetchDocumentRequest>) => {
  const { id } = event.data;
  void runFetchDocumentJob(event.data, (loaded, total) => {
    scope.postMessage({ id, kind: 'progress', loaded, total });
  }).then((result) => {
    // Transferring the buffer hands the bytes over without a copy.
    scope.postMessage(result, result.kind === 'done' ? [result.buffer] : []);
  });
};
