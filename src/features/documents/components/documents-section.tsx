import { Skeleton, Stack } from '@mantine/core';
import { IconFiles } from '@tabler/icons-react';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ErrorState } from '../../../components/error-state.tsx';
import type { DocumentMetadata } from '../../../../contract/entities.ts';
import type { DocumentDecoder } from '../decoding/document-decoder.ts';
import { DocumentList } from './document-list.tsx';
import type { DocumentDetailQueryFactory, DocumentListQuery } from './document-query-types.ts';
import type { DocumentViewer as EagerDocumentViewer } from './document-viewer.tsx';

/** The viewer (preview, decoders, decisions) loads on the first View, not with the entity page. */
const DocumentViewer = lazy(
  () => import('./document-viewer.tsx').then((module) => ({ default: module.DocumentViewer })),
  // lazy() drops the viewer's type parameter; the component is the same one.
) as unknown as typeof EagerDocumentViewer;

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
  // Stays mounted after the first View, so the viewer's close transition still plays.
  const [viewerWanted, setViewerWanted] = useState(false);

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
        onView={(document: DocumentMetadata) => {
          setViewerWanted(true);
          setViewingId(document.documentId);
        }}
        onDecided={onDecided}
      />
      {viewerWanted ? (
        <Suspense fallback={null}>
          <DocumentViewer
            document={viewing}
            onClose={() => setViewingId(null)}
            onDecided={onDecided}
            documentQuery={documentQuery}
            {...(createDecoder ? { createDecoder } : {})}
          />
        </Suspense>
      ) : null}
    </>
  );
}
