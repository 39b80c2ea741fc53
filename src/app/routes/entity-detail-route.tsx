import { useParams } from 'react-router';
import { EntityActivity } from '../../features/audit/components/entity-activity.tsx';
import { useCapabilities } from '../../features/capabilities/api/capabilities-queries.ts';
import { ClientUpdatePanel } from '../../features/client-updates/components/client-update-panel.tsx';
import { DocumentsSection } from '../../features/documents/components/documents-section.tsx';
import { entityQueries } from '../../features/entities/api/entity-queries.ts';
import {
  EntityDetailPage,
  useEntityLookup,
} from '../../features/entities/components/entity-detail-page.tsx';

/** /entities/:id: the entity page with the documents and client-update features plugged in. */
export function EntityDetailRoute() {
  const { id = '' } = useParams();
  const auditTrail = useCapabilities()?.features.auditTrail === true;
  const { legalEntity, naturalPerson } = useEntityLookup(id);
  return (
    <>
      <EntityDetailPage
        key={id}
        id={id}
        renderDocuments={(entityId) => (
          <DocumentsSection
            listQuery={entityQueries.documents(entityId)}
            documentQuery={entityQueries.document}
          />
        )}
        renderClientUpdates={(entity) => <ClientUpdatePanel entity={entity} />}
      />
      {auditTrail && (legalEntity.isSuccess || naturalPerson.isSuccess) && (
        <EntityActivity entityId={id} mt="lg" />
      )}
    </>
  );
}
