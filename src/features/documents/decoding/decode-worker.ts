import { runDecodeJob, type DecodeRequest } from './decode-job.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<DecodeRequest>) => {
  const response = runDecodeJob(event.data);
  // Transferring the buffer hands the bytes over without a copy.
  scope.postMessage(response, response.ok ? [response.buffer] : []);
};
