import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { DocumentDetail } from '../../../contract/entities.ts';
import type { DecodedFile, DocumentDecoder } from '../decoding/document-decoder.ts';
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
 * bytes as a Blob behind an object URL that is revoked, with the decoder, on unmount.
 */
export function useDecodedDocument<TKey extends QueryKey>(
  documentId: string,
  documentQuery: DocumentDetailQueryFactory<TKey>,
  createDecoder: () => DocumentDecoder,
) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [decoded, setDecoded] = useState<DecodedDocument | null>(null);
  const [decodeError, setDecodeError] = useState<string | null>(null);
  const decoderRef = useRef<DocumentDecoder | null>(null);

  const options = documentQuery(documentId, (loaded, total) => {
    const percent = total ? Math.min(100, Math.floor((loaded / total) * 100)) : null;
    // Re-render once per percent (or per 64 KB when the size is unknown), not per chunk.
    setProgress((previous) =>
      previous &&
      previous.percent === percent &&
      (percent !== null || loaded - previous.loaded < 65_536)
        ? previous
        : { loaded, total, percent },
    );
  });
  const query = useQuery(options);

  useEffect(() => {
    const decoder = createDecoder();
    decoderRef.current = decoder;
    return () => {
      decoder.dispose();
      decoderRef.current = null;
    };
  }, [createDecoder]);

  const file = query.data?.file;
  const declaredMimeType = query.data?.mimeType ?? null;
  useEffect(() => {
    const decoder = decoderRef.current;
    if (!file || !decoder) return;
    let cancelled = false;
    decoder.decode(file, declaredMimeType).then(
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
  }, [file, declaredMimeType, queryClient, documentQuery, documentId]);

  useEffect(() => {
    if (!decoded) return;
    const { objectUrl } = decoded;
    return () => URL.revokeObjectURL(objectUrl);
  }, [decoded]);

  return { query, progress, decoded, decodeError };
}
