import type { AuditFilter } from '../../../../contract/audit.ts';
import { CsvExportButton } from '../../../components/csv-export-button.tsx';
import { downloadAuditCsv, exportFileName } from '../api/export-audit-csv.ts';

/** Exports every event the filter matches (not only the pages shown) as one CSV file. */
export function ExportCsvButton({ filter }: { filter: AuditFilter | null }) {
  return (
    <CsvExportButton
      csvExport={
        filter && {
          download: (options) => downloadAuditCsv(filter, options),
          fileName: exportFileName(filter),
        }
      }
    />
  );
}
