import { Anchor, Badge, Group, List, Skeleton, Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { EmptyState } from '../../../components/empty-state.tsx';
import {
  PRIMARY_CONTACT,
  type LinkedEntity,
  type NaturalPerson,
} from '../../../../contract/entities.ts';
import { entityQueries } from '../../../lib/entity-queries.ts';
import { DetailSection } from './detail-section.tsx';

/** Names are read one request per person, so only this many are looked up. */
export const MAX_NAME_LOOKUPS = 20;

export interface LinkedPerson {
  entityId: string;
  relationships: string[];
}

/**
 * One entry per person (a person can hold several roles), the primary contact first and the
 * others in the server's order; within an entry "Primary Contact" leads.
 */
export function groupLinks(links: readonly LinkedEntity[]): LinkedPerson[] {
  const people = new Map<string, LinkedPerson>();
  for (const link of links) {
    const person = people.get(link.entityID) ?? { entityId: link.entityID, relationships: [] };
    if (link.relationship && !person.relationships.includes(link.relationship)) {
      if (link.relationship === PRIMARY_CONTACT) person.relationships.unshift(link.relationship);
      else person.relationships.push(link.relationship);
    }
    people.set(link.entityID, person);
  }
  const isPrimary = (person: LinkedPerson) => person.relationships[0] === PRIMARY_CONTACT;
  return [...people.values()].sort((a, b) => Number(isPrimary(b)) - Number(isPrimary(a)));
}

export const shortId = (id: string) => (id.length > 8 ? `${id.slice(0, 8)}…` : id);

/**
 * The people whose own records name this legal entity, among those the console has loaded: the
 * real service lists a company's people only on the people's side (vendor.md).
 */
function usePeopleNaming(entityId: string): LinkedEntity[] {
  const queryClient = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(onChange),
    [queryClient],
  );
  // A string snapshot: equal links compare equal, so unrelated cache updates do not re-render.
  const snapshot = useSyncExternalStore(subscribe, () => {
    const links: LinkedEntity[] = [];
    const people = queryClient.getQueriesData<NaturalPerson>({
      queryKey: entityQueries.naturalPersons(),
    });
    for (const [, person] of people) {
      for (const link of person?.personalInformation.linkedEntities ?? []) {
        if (person && link.entityID === entityId)
          links.push({ relationship: link.relationship ?? null, entityID: person.id });
      }
    }
    return JSON.stringify(links);
  });
  return useMemo(() => JSON.parse(snapshot) as LinkedEntity[], [snapshot]);
}

export function LinkedPeople({
  entityId,
  links,
}: {
  entityId: string;
  /** Undefined when the service does not list a legal entity's people on its record. */
  links: readonly LinkedEntity[] | undefined;
}) {
  const namedByPeople = usePeopleNaming(entityId);
  const listedHere = links !== undefined;
  const people = groupLinks(links ?? namedByPeople);
  const records = useQueries({
    queries: people
      .slice(0, MAX_NAME_LOOKUPS)
      .map((person) => entityQueries.naturalPerson(person.entityId)),
  });

  return (
    <DetailSection title="Linked people">
      {listedHere ? null : (
        <Text size="sm" c="dimmed" mb="sm">
          The identity service lists a company&apos;s people on their own records: these are the
          people opened here whose records name this company.
        </Text>
      )}
      {people.length === 0 ? (
        <EmptyState
          title="No linked people"
          description={
            listedHere
              ? 'No natural person is linked to this entity.'
              : 'No person opened so far names this company; open a person to see their companies.'
          }
          icon={<IconUsers size={28} aria-hidden />}
        />
      ) : (
        <List listStyleType="none" spacing="sm" aria-label="Linked people">
          {people.map((person, index) => {
            const record = records[index];
            const info = record?.data?.personalInformation;
            const name = info
              ? [info.firstName, info.middleName, info.lastName].filter(Boolean).join(' ')
              : `Person ${shortId(person.entityId)}`;
            return (
              <List.Item key={person.entityId}>
                {record?.isPending ? (
                  <Skeleton h={16} w={140} />
                ) : (
                  <Anchor
                    component={Link}
                    to={paths.entity(person.entityId, 'Natural Person')}
                    fw={500}
                  >
                    {name}
                  </Anchor>
                )}
                {info?.email ? (
                  <Text size="xs" c="dimmed">
                    {info.email}
                  </Text>
                ) : null}
                <Group gap={4} mt={4}>
                  {person.relationships.map((relationship) => (
                    <Badge
                      key={relationship}
                      variant={relationship === PRIMARY_CONTACT ? 'filled' : 'light'}
                      color={relationship === PRIMARY_CONTACT ? 'indigo' : 'gray'}
                      tt="none"
                    >
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
