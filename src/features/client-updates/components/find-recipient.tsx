import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import type { NaturalPerson } from '../../../../contract/entities.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { clientUpdateQueries } from '../api/client-update-queries.ts';

/** The first ten matches are offered; a reviewer narrows the name for more. */
const SHOWN_MATCHES = 10;

const NOT_LINKED = 'Not linked to this legal entity: the server accepts only its own people.';

/** Whether the person's record links them to the legal entity (the server's rule for a recipient). */
export function isLinkedTo(person: NaturalPerson, legalEntityId: string): boolean {
  return (person.personalInformation.linkedEntities ?? []).some(
    (link) => link.entityID === legalEntityId,
  );
}

/**
 * Finds someone to e-mail when the entity's record names no one (the real service lists a
 * company's people on the people's side): by last name with the natural-person search, or by a
 * pasted entity ID, checked by reading the person. Only people linked to the entity can be chosen.
 */
export function FindRecipient({
  legalEntityId,
  onChoose,
}: {
  legalEntityId: string;
  onChoose: (personId: string) => void;
}) {
  const queryClient = useQueryClient();
  const [lastName, setLastName] = useState('');
  const [searched, setSearched] = useState('');
  const [pastedId, setPastedId] = useState('');
  const [idError, setIdError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const matches = useQuery({
    ...clientUpdateQueries.peopleNamed(searched),
    enabled: searched !== '',
  });
  const shown = (matches.data ?? []).slice(0, SHOWN_MATCHES);
  const people = useQueries({ queries: shown.map((id) => clientUpdateQueries.recipient(id)) });

  function search(event: SyntheticEvent) {
    event.preventDefault();
    setSearched(lastName.trim());
  }

  async function choosePastedId(event: SyntheticEvent) {
    event.preventDefault();
    const id = pastedId.trim();
    if (id === '') {
      setIdError('Paste the person’s entity ID.');
      return;
    }
    setChecking(true);
    try {
      const person = await queryClient.query(clientUpdateQueries.recipient(id));
      if (!isLinkedTo(person, legalEntityId)) {
        setIdError(NOT_LINKED);
        return;
      }
      setIdError(null);
      setPastedId('');
      onChoose(id);
    } catch (error) {
      setIdError(
        error instanceof ApiError && error.status === 404
          ? 'No person has this entity ID.'
          : error instanceof Error
            ? error.message
            : 'The person could not be read.',
      );
    } finally {
      setChecking(false);
    }
  }

  return (
    <Stack gap="sm" component="section" aria-label="Find a recipient">
      <form onSubmit={search} noValidate>
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Find a person by last name"
            value={lastName}
            onChange={(event) => setLastName(event.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button
            type="submit"
            variant="default"
            leftSection={<IconSearch size={16} aria-hidden />}
            loading={matches.isFetching}
            disabled={lastName.trim() === ''}
          >
            Find
          </Button>
        </Group>
      </form>
      {matches.isError && (
        <Alert color="red" variant="light" title="The search failed">
          {matches.error.message}
        </Alert>
      )}
      {matches.data && (
        <Stack gap={4} role="status">
          {matches.data.length === 0 ? (
            <Text size="sm">No person’s last name holds “{searched}”.</Text>
          ) : (
            <Text size="sm">
              {matches.data.length > SHOWN_MATCHES
                ? `${String(matches.data.length)} people match; the first ${String(SHOWN_MATCHES)} are shown.`
                : `${String(matches.data.length)} ${matches.data.length === 1 ? 'person matches' : 'people match'}.`}
            </Text>
          )}
          {shown.map((id, index) => {
            const person = people[index]?.data;
            const name = person
              ? `${person.personalInformation.firstName} ${person.personalInformation.lastName}`
              : id;
            const linked = person ? isLinkedTo(person, legalEntityId) : false;
            return (
              <Group key={id} justify="space-between" gap="xs" wrap="nowrap">
                <div>
                  <Text size="sm">
                    {name}
                    {person?.personalInformation.email
                      ? ` · ${person.personalInformation.email}`
                      : ''}
                  </Text>
                  {person && !linked && (
                    <Text size="xs" c="dimmed">
                      {NOT_LINKED}
                    </Text>
                  )}
                </div>
                {linked && (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconUserPlus size={14} aria-hidden />}
                    onClick={() => onChoose(id)}
                    aria-label={`Choose ${name} as a recipient`}
                  >
                    Choose
                  </Button>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
      <form onSubmit={(event) => void choosePastedId(event)} noValidate>
        <Group align="flex-start" gap="xs">
          <TextInput
            label="…or paste a person’s entity ID"
            value={pastedId}
            onChange={(event) => setPastedId(event.currentTarget.value)}
            error={idError}
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="default" loading={checking} mt={25}>
            Use
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
