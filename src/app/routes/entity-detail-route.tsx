import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useParams } from 'react-router';
import { AfterFirstPaint } from '../../components/after-first-paint.tsx';
import { assigneeQueries } from '../../features/assignment/api/assignee-queries.ts';
import { AssigneeControl } from '../../features/assignment/components/assignee-control.tsx';
import { auditQueries } from '../../features/audit/api/audit-queries.ts';
import { EntityActivity } from '../../features/audit/components/entity-activity.tsx';
import { capabilityQueries } from '../../features/capabilities/api/capabilities-queries.ts';
import { clientUpdateQueries } from '../../features/client-updates/api/client-update-queries.ts';
import { ClientResponsePanel } from '../../features/client-updates/components/client-response-panel.tsx';
import { ClientUpdatePanel } from '../../features/client-updates/components/client-update-panel.tsx';
import { ReviewDecisionPanel } from '../../features/decisions/components/review-decision-panel.tsx';
import {
  DecisionControls,
  DecisionSummary,
} from '../../features/documents/components/document-decision.tsx';
import { DocumentsSection } from '../../features/documents/components/documents-section.tsx';
import { entityQueries } from '../../lib/entity-queries.ts';
import {
  EntityDetailPage,
  useEntityLookup,
} from '../../features/entities/components/entity-detail-page.tsx';
import { fullName } from '../../features/entities/components/natural-person-detail.tsx';
import { NotesThread } from '../../features/notes/components/notes-thread.tsx';
import { reviewQueries } from '../../features/reviews/api/review-queries.ts';
import { QueueNavigation } from '../../features/reviews/components/queue-navigation.tsx';
import type { EntityLinkType } from '../../lib/paths.ts';
import { useOfferEntityToPalette } from '../palette-entity.tsx';
import { useCanAct } from '../use-can-act.ts';

/**
 * /entities/:id: the entity page with the documents, client-update, decision and notes features
 * plugged in; the optional ones only where the server's capabilities offer them, and their
 * actions only for an account that may act (an auditor reads them).
 */
export function EntityDetailRoute({ type }: { type?: EntityLinkType }) {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const capabilitiesQuery = useQuery(capabilityQueries.current());
  const capabilities = capabilitiesQuery.data;
  const features = capabilities?.features;
  const canAct = useCanAct();
  const refreshActivity = () => queryClient.invalidateQueries({ queryKey: auditQueries.all() });
  // A decision changes the entity, where it stands in the review queue, and its Activity.
  const refreshEntity = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: entityQueries.all() }),
      queryClient.invalidateQueries({ queryKey: reviewQueries.all() }),
      refreshActivity(),
    ]);
  // A client's answer changes its documents, the contact's record and the request history too.
  const refreshResponse = () =>
    Promise.all([
      refreshEntity(),
      queryClient.invalidateQueries({ queryKey: clientUpdateQueries.all() }),
    ]);
  const { legalEntity, naturalPerson } = useEntityLookup(id, type);
  // Deferred as the page's details are (EntityDetailPage), so both appear in one commit.
  const entityShown = useDeferredValue(legalEntity.isSuccess || naturalPerson.isSuccess);
  const entity = legalEntity.data ?? naturalPerson.data;
  // The gateway keeps assignments itself: the identity service's entity knows nothing of them.
  const keptByGateway = capabilities?.mode === 'gateway' && features?.assignment === true;
  const gatewayAssignee = useQuery({ ...assigneeQueries.of(id), enabled: keptByGateway });
  const entityName = entity
    ? entity.type === 'Legal Entity'
      ? entity.corporateInformation.companyName
      : fullName(entity)
    : '';
  useOfferEntityToPalette(entity && entityShown ? { id: entity.id, name: entityName } : null);
  const page = (
    <EntityDetailPage
      key={id}
      id={id}
      type={type}
      // The review panel sits above the details: wait for it rather than push them down later.
      sectionsPending={capabilitiesQuery.isPending && capabilitiesQuery.failureCount === 0}
      renderDocuments={(entityId) => (
        <DocumentsSection
          listQuery={entityQueries.documents(entityId)}
          documentQuery={entityQueries.document}
          onDecided={features?.documentDecisions && canAct ? refreshResponse : undefined}
        />
      )}
      renderClientUpdates={(entity) => (
        <ClientUpdatePanel
          entity={entity}
          readOnly={!canAct}
          canResend={capabilities?.mode === 'embedded'}
        />
      )}
      // Under the page's header (its way back first): a client's answer waiting for review, then who
      // works on it, then the decision.
      renderReview={(entity) => (
        <>
          {entity.type === 'Legal Entity' ? (
            <ClientResponsePanel
              entityId={entity.id}
              readOnly={!canAct}
              onChanged={refreshResponse}
              renderDocumentDecision={(document) => (
                <>
                  <DecisionSummary document={document} />
                  {features?.documentDecisions && canAct ? (
                    <DecisionControls document={document} onDecided={refreshResponse} />
                  ) : null}
                </>
              )}
            />
          ) : null}
          {features?.assignment && capabilities ? (
            <AssigneeControl
              variant="page"
              entityId={entity.id}
              entityName={entityName}
              assignedUser={keptByGateway ? gatewayAssignee.data : entity.kycMetaData?.assignedUser}
              username={capabilities.account.username}
              onAssigned={refreshEntity}
              readOnly={!canAct}
            />
          ) : null}
          {capabilities && features?.recordVerification ? (
            <ReviewDecisionPanel
              entityId={entity.id}
              entityKind={entity.type === 'Legal Entity' ? 'legal' : 'person'}
              riskLevel={entity.kycMetaData?.riskLevel}
              username={capabilities.account.username}
              fourEyes={capabilities.fourEyes}
              onEntityChanged={refreshEntity}
              readOnly={!canAct}
            />
          ) : null}
        </>
      )}
      renderNotes={(entityId) =>
        features?.notes ? (
          <NotesThread entityId={entityId} readOnly={!canAct} onAdded={refreshActivity} />
        ) : null
      }
    />
  );
  return (
    <>
      <QueueNavigation />
      {page}
      {features?.auditTrail && entityShown && (
        <AfterFirstPaint>
          <EntityActivity entityId={id} mt="lg" />
        </AfterFirstPaint>
      )}
    </>
  );
}

/** /entities/people/:id: a person's link, which asks the person endpoint alone. */
export function NaturalPersonDetailRoute() {
  return <EntityDetailRoute type="Natural Person" />;
}
