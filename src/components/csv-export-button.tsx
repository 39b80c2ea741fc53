import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '../lib/format.ts';
import { saveBlob } from '../lib/save-file.ts';

type ExportState =
  | { kind: 'idle' }
  | { kind: 'preparing'; loaded: number }
  | { kind: 'done'; fileName: string; size: number }
  | { kind: 'failed'; message: string };

/** How a CSV export is fetched: the server streams it; `onProgress` gets the bytes so far. */
export interface CsvExport {
  download(options: { signal: AbortSignal; onProgress: (loaded: number) => void }): Promise<Blob>;
  fileName: string;
}

/**
 * Exports a whole filtered set (not only the page shown) as one CSV file, with its progress and
 * Cancel; `csvExport` null disables it (a filter not yet valid).
 */
export function CsvExportButton({
  csvExport,
  label = 'Export CSV',
}: {
  csvExport: CsvExport | null;
  label?: string;
}) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);

  // Leaving the page stops a download nobody is waiting for.
  useEffect(() => () => controller.current?.abort(), []);

  const start = async (chosen: CsvExport) => {
    const abort = new AbortController();
    controller.current = abort;
    setState({ kind: 'preparing', loaded: 0 });
    try {
      const blob = await chosen.download({
        signal: abort.signal,
        onProgress: (loaded) => setState({ kind: 'preparing', loaded }),
      });
      const fileName = chosen.fileName;
      saveBlob(blob, fileName);
      setState({ kind: 'done', fileName, size: blob.size });
    } catch (error) {
      if (abort.signal.aborted) {
        setState({ kind: 'idle' });
        return;
      }
      setState({
        kind: 'failed',
        message: error instanceof Error ? error.message : 'The export failed.',
      });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  };

  const preparing = state.kind === 'preparing';
  return (
    <Stack gap="xs" align="flex-end">
      <Group gap="sm" wrap="nowrap">
        {preparing && (
          <Button variant="subtle" color="gray" onClick={() => controller.current?.abort()}>
            Cancel export
          </Button>
        )}
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => {
            if (csvExport) void start(csvExport);
          }}
          disabled={csvExport === null}
          loading={preparing}
        >
          {label}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {state.kind === 'preparing'
          ? `Preparing export… ${state.loaded > 0 ? `${formatBytes(state.loaded)} so far` : ''}`.trim()
          : state.kind === 'done'
            ? `Exported ${state.fileName} (${formatBytes(state.size)}).`
            : ''}
      </Text>
      {state.kind === 'failed' && (
        <Alert
          color="red"
          variant="light"
          title="The export failed"
          icon={<IconAlertTriangle aria-hidden />}
          role="alert"
          w="100%"
        >
          {state.message}
        </Alert>
      )}
    </Stack>
  );
}
