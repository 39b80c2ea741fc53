import { Anchor, Badge, Group, List, Skeleton } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import type { LinkedEntity } from '../../../../contract/entities.ts';
import { entityQueries } from '../../../lib/entity-queries.ts';
import { DetailSection } from './detail-section.tsx';
import { groupLinks, MAX_NAME_LOOKUPS, shortId } from './linked-people.tsx';

/** The legal entities a natural person is tied to, each linking to its page. */
export function LinkedLegalEntities({ links }: { links: readonly LinkedEntity[] | undefined }) {
  const companies = groupLinks(links ?? []);
  const records = useQueries({
    queries: companies
      .slice(0, MAX_NAME_LOOKUPS)
      .map((company) => entityQueries.legalEntity(company.entityId)),
  });

  return (
    <DetailSection title="Linked legal entities">
      {companies.length === 0 ? (
        <EmptyState
          title="No linked legal entities"
          description="This person is not linked to any legal entity."
          icon={<IconBuilding size={28} aria-hidden />}
        />
      ) : (
        <List listStyleType="none" spacing="sm" aria-label="Linked legal entities">
          {companies.map((company, index) => {
            const record = records[index];
            return (
              <List.Item key={company.entityId}>
                {record?.isPending ? (
                  <Skeleton h={16} w={160} />
                ) : (
                  <Anchor component={Link} to={paths.entity(company.entityId)} fw={500}>
                    {record?.data?.corporateInformation.companyName ??
                      `Legal entity ${shortId(company.entityId)}`}
                  </Anchor>
                )}
                <Group gap={4} mt={4}>
                  {company.relationships.map((relationship) => (
                    <Badge key={relationship} variant="light" color="gray" tt="none">
                      {relationship}
                    </Badge>
                  ))}
                </Group>
              </List.Item>
            );
          })}
        </List>
      )}
    </DetailSection>
  );
}
