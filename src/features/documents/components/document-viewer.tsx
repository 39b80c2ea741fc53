import {
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Progress,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import type { QueryKey } from '@tanstack/react-query';
import { ErrorState } from '../../../components/error-state.tsx';
import type { DocumentMetadata } from '../../../../contract/entities.ts';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { createDocumentDecoder, type DocumentDecoder } from '../decoding/document-decoder.ts';
import { createDocumentFetcher, type DocumentFetcher } from '../decoding/document-fetcher.ts';
import { sanitizeFileName } from '../decoding/safe-file-name.ts';
import { saveObjectUrl } from '../../../lib/save-file.ts';
import { ApprovalBadge } from './approval-badge.tsx';
import { DecisionControls, DecisionSummary } from './document-decision.tsx';
import { DocumentPreview } from './document-preview.tsx';
import type { DocumentDetailQueryFactory } from './document-query-types.ts';
import { useDecodedDocument, type DownloadProgress } from './use-decoded-document.ts';

export interface DocumentViewerProps<TKey extends QueryKey> {
  /** The document to show; null keeps the viewer closed. */
  document: DocumentMetadata | null;
  onClose: () => void;
  documentQuery: DocumentDetailQueryFactory<TKey>;
  /** Tests inject an inline decoder; the browser gets a worker-backed one. */
  createDecoder?: () => DocumentDecoder;
  /** Fetches large documents in a worker; null (jsdom, no Worker) keeps them on apiRequest. */
  createFetcher?: (() => DocumentFetcher) | null;
  /** Present where the server takes document decisions: Approve and Reject show then. */
  onDecided?: (() => Promise<unknown>) | undefined;
}

/** Below Mantine's `sm` breakpoint the viewer takes the whole screen. */
const PHONE_WIDTH = '(max-width: 47.99em)';

const defaultCreateDecoder = () => createDocumentDecoder();
const defaultCreateFetcher = typeof Worker === 'undefined' ? null : () => createDocumentFetcher();

export function DocumentViewer<TKey extends QueryKey>({
  document,
  onClose,
  documentQuery,
  createDecoder = defaultCreateDecoder,
  createFetcher = defaultCreateFetcher,
  onDecided,
}: DocumentViewerProps<TKey>) {
  const phone = useMediaQuery(PHONE_WIDTH);
  return (
    <Modal
      opened={document !== null}
      onClose={onClose}
      fullScreen={phone}
      size="70rem"
      title={document?.fileName ?? 'Document'}
      closeButtonProps={{ 'aria-label': 'Close viewer' }}
      styles={{ title: { fontWeight: 600, overflowWrap: 'anywhere' } }}
    >
      {document ? (
        <ViewerBody
          key={document.documentId}
          document={document}
          documentQuery={documentQuery}
          createDecoder={createDecoder}
          createFetcher={createFetcher}
          onClose={onClose}
          onDecided={onDecided}
        />
      ) : null}
    </Modal>
  );
}

function ViewerBody<TKey extends QueryKey>({
  document,
  documentQuery,
  createDecoder,
  createFetcher,
  onClose,
  onDecided,
}: {
  document: DocumentMetadata;
  documentQuery: DocumentDetailQueryFactory<TKey>;
  createDecoder: () => DocumentDecoder;
  createFetcher: (() => DocumentFetcher) | null;
  onClose: () => void;
  onDecided: (() => Promise<unknown>) | undefined;
}) {
  const { query, progress, decoded, decodeError } = useDecodedDocument(
    document.documentId,
    documentQuery,
    createDecoder,
    { expectedSize: document.fileSize ?? undefined, createFetcher },
  );
  // The bytes never change, but the decision does: the list's metadata is the current one.
  const detail = { ...(query.data ?? document), documentApproved: document.documentApproved };
  const size = query.data?.fileSize ?? document.fileSize;

  return (
    <Stack gap="sm">
      <Group gap="md" wrap="wrap">
        <ApprovalBadge
          approved={detail.documentApproved}
          rejected={document.decision?.approved === false}
        />
        {detail.type ? <Text size="sm">{detail.type}</Text> : null}
        <Text size="sm" c="dimmed">
          Received {formatDate(detail.dateReceived)}
        </Text>
        {size != null ? (
          <Text size="sm" c="dimmed">
            {formatBytes(size)}
          </Text>
        ) : null}
      </Group>
      {detail.description ? <Text size="sm">{detail.description}</Text> : null}
      <DecisionSummary document={document} />
      {onDecided && <DecisionControls document={document} onDecided={onDecided} />}

      {query.isError ? (
        <ErrorState
          title="The document could not be loaded"
          message={query.error.message}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : decodeError ? (
        <ErrorState title="The document could not be shown" message={decodeError} />
      ) : decoded ? (
        <DocumentPreview
          objectUrl={decoded.objectUrl}
          mimeType={decoded.mimeType}
          fileName={document.fileName}
        />
      ) : query.isPending ? (
        <LoadingProgress fileName={document.fileName} progress={progress} />
      ) : (
        <Center h={200}>
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm">Preparing the preview…</Text>
          </Group>
        </Center>
      )}

      {/* Kept in view at the bottom of the scrolling dialog, however tall the details above grow. */}
      <Group
        justify="flex-end"
        gap="sm"
        pos="sticky"
        bottom={0}
        py="xs"
        bg="var(--mantine-color-body)"
        style={{ zIndex: 1, borderTop: '1px solid var(--mantine-color-default-border)' }}
      >
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button
          leftSection={<IconDownload size={16} aria-hidden />}
          disabled={!decoded}
          onClick={() => {
            if (decoded)
              saveObjectUrl(
                decoded.objectUrl,
                sanitizeFileName(document.fileName, decoded.mimeType),
              );
          }}
        >
          Download
        </Button>
      </Group>
    </Stack>
  );
}

function LoadingProgress({
  fileName,
  progress,
}: {
  fileName: string;
  progress: DownloadProgress | null;
}) {
  if (!progress) {
    return (
      <Stack gap="xs" role="status" aria-busy="true" aria-label={`Loading ${fileName}`}>
        <Text size="sm">Loading the document…</Text>
        <Skeleton h={320} />
      </Stack>
    );
  }
  const { percent, loaded } = progress;
  return (
    <Stack gap="xs" py="xl">
      <Group justify="space-between">
        <Text size="sm">Downloading {fileName}…</Text>
        <Text size="sm" fw={500}>
          {percent === null ? formatBytes(loaded) : `${percent}%`}
        </Text>
      </Group>
      <Progress.Root size="lg">
        {percent === null ? (
          <Progress.Section
            value={100}
            animated
            withAria={false}
            role="progressbar"
            aria-valuetext={`${formatBytes(loaded)} received`}
            aria-label={`Downloading ${fileName}`}
          />
        ) : (
          <Progress.Section value={percent} aria-label={`Downloading ${fileName}`} />
        )}
      </Progress.Root>
    </Stack>
  );
}
