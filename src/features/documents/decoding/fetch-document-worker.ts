import { runFetchDocumentJob, type FetchDocumentRequest } from './fetch-document-job.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<FetchDocumentRequest>) => {
  const { id } = event.data;
  void runFetchDocumentJob(event.data, (loaded, total) => {
    scope.postMessage({ id, kind: 'progress', loaded, total });
  }).then((result) => {
    // A Blob is cloned by reference: the main thread gets a handle to the bytes, not a copy.
    scope.postMessage(result);
  });
};
