import { VisuallyHidden } from '@mantine/core';
import { useCapabilities } from '../../features/capabilities/api/capabilities-queries.ts';
import { EntityIndexPage } from '../../features/entities/components/entity-index-page.tsx';
import { EntityListPage } from '../../features/entities/components/entity-list-page.tsx';

/** The entity index where the server has one (embedded mode), else the interface's list. */
export function EntitiesRoute() {
  const capabilities = useCapabilities();
  if (capabilities === undefined)
    return <VisuallyHidden role="status">Loading entities…</VisuallyHidden>;
  return capabilities.features.entityIndex ? <EntityIndexPage /> : <EntityListPage />;
}
