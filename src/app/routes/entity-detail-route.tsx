import { useParams } from 'react-router';
import { ClientUpdatePanel } from '../../features/client-updates/components/client-update-panel.tsx';
import { DocumentsSection } from '../../features/documents/components/documents-section.tsx';
import { entityQueries } from '../../features/entities/api/entity-queries.ts';
import { EntityDetailPage } from '../../features/entities/components/entity-detail-page.tsx';
import { QueueNavigation } from '../../features/reviews/components/queue-navigation.tsx';

/** /entities/:id: the entity page with the documents and client-update features plugged in. */
export function EntityDetailRoute() {
  const { id = '' } = useParams();
  const page = (
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
  );
  return (
    <>
      <QueueNavigation />
      {page}
    </>
  );
}
