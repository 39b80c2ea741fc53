import { Anchor, Badge, Group, List, Skeleton, Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../app/paths.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PRIMARY_CONTACT, type LinkedEntity } from '../../../contract/entities.ts';
import { entityQueries } from '../api/entity-queries.ts';
import { DetailSection } from './detail-section.tsx';

/** Names are read one request per person, so only this many are looked up. */
export const MAX_NAME_LOOKUPS = 20;

/** The primary contact first, then by relationship, keeping the server's order otherwise. */
export function orderLinks(links: readonly LinkedEntity[]): LinkedEntity[] {
  const rank = (link: LinkedEntity) => (link.relationship === PRIMARY_CONTACT ? 0 : 1);
  return links
    .map((link, index) => ({ link, index }))
    .sort((a, b) => rank(a.link) - rank(b.link) || a.index - b.index)
    .map(({ link }) => link);
}

const shortId = (id: string) => (id.length > 8 ? `${id.slice(0, 8)}…` : id);

export function LinkedPeople({ links }: { links: readonly LinkedEntity[] | undefined }) {
  const ordered = orderLinks(links ?? []);
  const people = useQueries({
    queries: ordered
      .slice(0, MAX_NAME_LOOKUPS)
      .map((link) => entityQueries.naturalPerson(link.entityID)),
  });

  return (
    <DetailSection title="Linked people">
      {ordered.length === 0 ? (
        <EmptyState
          title="No linked people"
          description="No natural person is linked to this entity."
          icon={<IconUsers size={28} aria-hidden />}
        />
      ) : (
        <List listStyleType="none" spacing="xs" aria-label="Linked people">
          {ordered.map((link, index) => {
            const person = people[index];
            const info = person?.data?.personalInformation;
            const name = info
              ? [info.firstName, info.middleName, info.lastName].filter(Boolean).join(' ')
              : `Person ${shortId(link.entityID)}`;
            return (
              <List.Item key={link.entityID}>
                <Group gap="xs" wrap="nowrap" justify="space-between">
                  {person?.isPending ? (
                    <Skeleton h={16} w={140} />
                  ) : (
                    <Anchor component={Link} to={paths.entity(link.entityID)} fw={500}>
                      {name}
                    </Anchor>
                  )}
                  <Badge
                    variant={link.relationship === PRIMARY_CONTACT ? 'filled' : 'light'}
                    color={link.relationship === PRIMARY_CONTACT ? 'indigo' : 'gray'}
                    tt="none"
                    style={{ flexShrink: 0 }}
                  >
                    {link.relationship ?? 'Linked'}
                  </Badge>
                </Group>
                {info?.email ? (
                  <Text size="xs" c="dimmed">
                    {info.email}
                  </Text>
                ) : null}
              </List.Item>
            );
          })}
        </List>
      )}
    </DetailSection>
  );
}
