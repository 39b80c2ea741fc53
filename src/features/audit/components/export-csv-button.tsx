import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import type { AuditFilter } from '../../../../contract/audit.ts';
import { formatBytes } from '../../../lib/format.ts';
import { downloadAuditCsv, exportFileName, saveBlob } from '../api/export-audit-csv.ts';

type ExportState =
  | { kind: 'idle' }
  | { kind: 'preparing'; loaded: number }
  | { kind: 'done'; fileName: string; size: number }
  | { kind: 'failed'; message: string };

/** Exports every event the filter matches (not only the pages shown) as one CSV file. */
export function ExportCsvButton({ filter }: { filter: AuditFilter | null }) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);

  // Leaving the page stops a download nobody is waiting for.
  useEffect(() => () => controller.current?.abort(), []);

  const start = async (chosen: AuditFilter) => {
    const abort = new AbortController();
    controller.current = abort;
    setState({ kind: 'preparing', loaded: 0 });
    try {
      const blob = await downloadAuditCsv(chosen, {
        signal: abort.signal,
        onProgress: (loaded) => setState({ kind: 'preparing', loaded }),
      });
      const fileName = exportFileName(chosen);
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
            if (filter) void start(filter);
          }}
          disabled={filter === null}
          loading={preparing}
        >
          Export CSV
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
