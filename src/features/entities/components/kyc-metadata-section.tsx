import { Badge, Group } from '@mantine/core';
import { ReviewDateBadge } from '../../../components/review-date-badge.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type { KycMetaData } from '../../../../contract/entities.ts';
import { formatDate } from '../../../lib/format.ts';
import { DetailFields } from './detail-fields.tsx';
import { DetailSection } from './detail-section.tsx';

export function KycMetadataSection({ kyc }: { kyc: KycMetaData | undefined }) {
  const tags = kyc?.tags ?? [];
  return (
    <DetailSection title="KYC">
      <DetailFields
        columns={1}
        fields={[
          { label: 'KYC status', value: <StatusBadge status={kyc?.kycStatus} /> },
          { label: 'Risk level', value: kyc?.riskLevel },
          { label: 'External ID', value: kyc?.externalID },
          { label: 'Next KYC review', value: <ReviewDateBadge date={kyc?.nextKYCReview} /> },
          {
            label: 'Created',
            value: kyc?.createdDateTime ? formatDate(kyc.createdDateTime) : null,
          },
          { label: 'Last update', value: kyc?.lastUpdate ? formatDate(kyc.lastUpdate) : null },
          // Only the real service's list names an assignee; a record without the field shows none.
          ...(kyc?.assignedUser !== undefined
            ? [{ label: 'Assigned to', value: kyc.assignedUser ?? 'Nobody' }]
            : []),
          {
            label: 'Tags',
            value:
              tags.length > 0 ? (
                <Group gap={4}>
                  {tags.map((tag) => (
                    <Badge key={tag} variant="light" color="gray" tt="none">
                      {tag}
                    </Badge>
                  ))}
                </Group>
              ) : (
                'None'
              ),
          },
        ]}
      />
    </DetailSection>
  );
}
