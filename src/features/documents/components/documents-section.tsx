import { Skeleton, Stack } from '@mantine/core';
import { IconFiles } from '@tabler/icons-react';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import type { DocumentMetadata } from '../../../../contract/entities.ts';
import type { DocumentDecoder } from '../decoding/document-decoder.ts';
import { DocumentList } from './document-list.tsx';
import type { DocumentDetailQueryFactory, DocumentListQuery } from './document-query-types.ts';
import { DocumentViewer } from './document-viewer.tsx';

export interface DocumentsSectionProps<TListKey extends QueryKey, TDetailKey extends QueryKey> {
  listQuery: DocumentListQuery<TListKey>;
  documentQuery: DocumentDetailQueryFactory<TDetailKey>;
  createDecoder?: () => DocumentDecoder;
  /** Present where the server takes document decisions; refreshes what shows the documents. */
  onDecided?: (() => Promise<unknown>) | undefined;
}

/** An entity's supporting documents with their loading, empty and error states, and the viewer. */
export function DocumentsSection<TListKey extends QueryKey, TDetailKey extends QueryKey>({
  listQuery,
  documentQuery,
  createDecoder,
  onDecided,
}: DocumentsSectionProps<TListKey, TDetailKey>) {
  const documents = useQuery(listQuery);
  // By id, so the viewer shows the list's current metadata after a decision.
  const [viewingId, setViewingId] = useState<string | null>(null);

  if (documents.isPending) {
    return (
      <Stack gap="xs" role="status" aria-busy="true" aria-label="Loading documents">
        <Skeleton h={36} />
        <Skeleton h={36} />
        <Skeleton h={36} />
      </Stack>
    );
  }
  if (documents.isError) {
    return (
      <ErrorState
        title="Documents could not be loaded"
        message={documents.error.message}
        onRetry={() => void documents.refetch()}
        retrying={documents.isFetching}
      />
    );
  }
  if (documents.data.length === 0) {
    return (
      <EmptyState
        title="No supporting documents"
        description="Documents received for this entity will appear here."
        icon={<IconFiles size={28} aria-hidden />}
      />
    );
  }
  const viewing = documents.data.find((document) => document.documentId === viewingId) ?? null;
  return (
    <>
      <DocumentList
        documents={documents.data}
        onView={(document: DocumentMetadata) => setViewingId(document.documentId)}
        onDecided={onDecided}
      />
      <DocumentViewer
        document={viewing}
        onClose={() => setViewingId(null)}
        onDecided={onDecided}
        documentQuery={documentQuery}
        {...(createDecoder ? { createDecoder } : {})}
      />
    </>
  );
}
