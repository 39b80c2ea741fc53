import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';
import type { DocumentDetail, DocumentMetadata } from '../../../../contract/entities.ts';

export type ProgressListener = (loaded: number, total: number | null) => void;

/** The app passes the entity query factory in, so this feature does not import another one. */
export type DocumentListQuery<TKey extends QueryKey> = UseQueryOptions<
  DocumentMetadata[],
  Error,
  DocumentMetadata[],
  TKey
>;

export type DocumentDetailQueryFactory<TKey extends QueryKey> = (
  documentId: string,
  onProgress: ProgressListener,
) => UseQueryOptions<DocumentDetail, Error, DocumentDetail, TKey>;
