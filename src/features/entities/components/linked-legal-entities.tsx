import { Anchor, Badge, Group, List, Skeleton } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import type { LinkedEntity } from '../../../contract/entities.ts';
import { entityQueries } from '../api/entity-queries.ts';
import { DetailSection } from './detail-section.tsx';
import { MAX_NAME_LOOKUPS } from './linked-people.tsx';

const shortId = (id: string) => (id.length > 8 ? `${id.slice(0, 8)}…` : id);

/** The legal entities a natural person is tied to, each linking to its page. */
export function LinkedLegalEntities({ links }: { links: readonly LinkedEntity[] | undefined }) {
  const list = links ?? [];
  const companies = useQueries({
    queries: list
      .slice(0, MAX_NAME_LOOKUPS)
      .map((link) => entityQueries.legalEntity(link.entityID)),
  });

  return (
    <DetailSection title="Linked legal entities">
      {list.length === 0 ? (
        <EmptyState
          title="No linked legal entities"
          description="This person is not linked to any legal entity."
          icon={<IconBuilding size={28} aria-hidden />}
        />
      ) : (
        <List listStyleType="none" spacing="xs" aria-label="Linked legal entities">
          {list.map((link, index) => {
            const company = companies[index];
            return (
              <List.Item key={link.entityID}>
                <Group gap="xs" wrap="nowrap" justify="space-between">
                  {company?.isPending ? (
                    <Skeleton h={16} w={160} />
                  ) : (
                    <Anchor component={Link} to={paths.entity(link.entityID)} fw={500}>
                      {company?.data?.corporateInformation.companyName ??
                        `Legal entity ${shortId(link.entityID)}`}
                    </Anchor>
                  )}
                  {link.relationship ? (
                    <Badge variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>
                      {link.relationship}
                    </Badge>
                  ) : null}
                </Group>
              </List.Item>
            );
          })}
        </List>
      )}
    </DetailSection>
  );
}
