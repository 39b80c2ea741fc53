import {
  useQuery,
  useQueryClient,
  type QueryKey,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { DocumentDetail } from '../../../../contract/entities.ts';
import type { DecodedFile, DocumentDecoder } from '../decoding/document-decoder.ts';
import { FETCH_IN_WORKER_ABOVE_BYTES, type DocumentFetcher } from '../decoding/document-fetcher.ts';
import type { DocumentDetailWithoutFile } from '../decoding/fetch-document-job.ts';
import type { DocumentDetailQueryFactory } from './document-query-types.ts';

const ignoreProgress = () => undefined;

export interface DownloadProgress {
  loaded: number;
  total: number | null;
  /** Whole percent, or null while the size is unknown. */
  percent: number | null;
}

export interface DecodedDocument extends DecodedFile {
  objectUrl: string;
}

/**
 * Fetches one document with progress, decodes its base64 off the main thread, and holds the
 * bytes as a Blob behind an object URL that is revoked, with the decoder, on unmount. Large
 * documents are fetched, parsed and decoded entirely in a worker (createFetcher), so the main
 * thread never holds their JSON text; without a Worker everything goes through apiRequest.
 */
export function useDecodedDocument<TKey extends QueryKey>(
  documentId: string,
  documentQuery: DocumentDetailQueryFactory<TKey>,
  createDecoder: () => DocumentDecoder,
  {
    expectedSize,
    createFetcher,
  }: {
    expectedSize: number | undefined;
    createFetcher: (() => DocumentFetcher) | null;
  },
) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [decoded, setDecoded] = useState<DecodedDocument | null>(null);
  const [decodeError, setDecodeError] = useState<string | null>(null);
  const decoderRef = useRef<DocumentDecoder | null>(null);

  const viaWorker =
    createFetcher !== null &&
    expectedSize !== undefined &&
    expectedSize > FETCH_IN_WORKER_ABOVE_BYTES;

  const onProgress = (loaded: number, total: number | null) => {
    const percent = total ? Math.min(100, Math.floor((loaded / total) * 100)) : null;
    // Re-render once per percent (or per 64 KB when the size is unknown), not per chunk.
    setProgress((previous) =>
      previous &&
      previous.percent === percent &&
      (percent !== null || loaded - previous.loaded < 65_536)
        ? previous
        : { loaded, total, percent },
    );
  };
  const options = documentQuery(documentId, onProgress);
  const directQuery = useQuery({ ...options, enabled: !viaWorker });
  const workerQuery = useQuery({
    queryKey: [...options.queryKey, 'fetched-in-worker'],
    queryFn: async ({ signal }) => {
      if (!createFetcher) throw new Error('No worker to fetch the document in.');
      // One worker per fetch: unmounting aborts the query, which stops the worker mid-download.
      const fetcher = createFetcher();
      const stop = () => {
        fetcher.dispose();
      };
      signal.addEventListener('abort', stop);
      try {
        const fetched = await fetcher.fetch(documentId, onProgress);
        if (!signal.aborted)
          setDecoded({ ...fetched.file, objectUrl: URL.createObjectURL(fetched.file.blob) });
        return fetched.detail;
      } finally {
        signal.removeEventListener('abort', stop);
        fetcher.dispose();
      }
    },
    enabled: viaWorker,
    // The decoded bytes live in this component's state: a remount must fetch them again.
    gcTime: 0,
    retry: false,
  });
  const query: UseQueryResult<DocumentDetailWithoutFile> = viaWorker ? workerQuery : directQuery;

  useEffect(() => {
    const decoder = createDecoder();
    decoderRef.current = decoder;
    return () => {
      decoder.dispose();
      decoderRef.current = null;
    };
  }, [createDecoder]);

  const file = directQuery.data?.file;
  useEffect(() => {
    const decoder = decoderRef.current;
    if (!file || !decoder) return;
    let cancelled = false;
    decoder.decode(file).then(
      (result) => {
        if (cancelled) return;
        setDecoded({ ...result, objectUrl: URL.createObjectURL(result.blob) });
        // The Blob now holds the bytes: dropping the base64 copy keeps memory flat.
        const { queryKey } = documentQuery(documentId, ignoreProgress);
        queryClient.setQueryData<DocumentDetail>(queryKey, (previous) =>
          previous ? { ...previous, file: '' } : previous,
        );
      },
      (error: unknown) => {
        if (!cancelled)
          setDecodeError(
            error instanceof Error ? error.message : 'The document could not be decoded.',
          );
      },
    );
    return () => {
      cancelled = true;
    };
  }, [file, queryClient, documentQuery, documentId]);

  useEffect(() => {
    if (!decoded) return;
    const { objectUrl } = decoded;
    return () => URL.revokeObjectURL(objectUrl);
  }, [decoded]);

  return { query, progress, decoded, decodeError };
}
