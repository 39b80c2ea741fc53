import { Text } from '@mantine/core';
import type { LegalEntity } from '../../../contract/entities.ts';

/** STUB: replaced by the client-updates work: "Request update" button, dialog, and past requests. */
export function ClientUpdatePanel({ entity }: { entity: LegalEntity }) {
  return (
    <Text c="dimmed">Client updates for {entity.corporateInformation.companyName} are coming.</Text>
  );
}
