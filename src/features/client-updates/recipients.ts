import { useQueries } from '@tanstack/react-query';
import {
  PRIMARY_CONTACT,
  type LegalEntity,
  type NaturalPerson,
} from '../../../contract/entities.ts';
import { entityQueries } from '../../lib/entity-queries.ts';

export interface Recipient {
  id: string;
  /** Every role the person holds, e.g. `Primary Contact, Director`. */
  relationship: string | undefined;
  isPrimaryContact: boolean;
  /** Undefined while loading or when the person could not be read. */
  person: NaturalPerson | undefined;
  loading: boolean;
}

export function recipientName(recipient: Recipient): string {
  if (!recipient.person) return recipient.relationship ?? 'Linked person';
  const { firstName, lastName } = recipient.person.personalInformation;
  return `${firstName} ${lastName}`;
}

export function recipientEmail(recipient: Recipient): string | null {
  return recipient.person?.personalInformation.email ?? null;
}

/**
 * The people linked to the entity, once each with all their roles (one person can be primary
 * contact and director), then the people the reviewer chose here (`chosenIds`: the real service
 * lists a company's people on the people's side), with their records read one by one.
 */
export function useRecipients(entity: LegalEntity, chosenIds: string[] = []): Recipient[] {
  const roles = new Map<string, string[]>();
  for (const link of entity.linkedEntities ?? []) {
    const held = roles.get(link.entityID) ?? [];
    if (link.relationship) held.push(link.relationship);
    roles.set(link.entityID, held);
  }
  for (const id of chosenIds) if (!roles.has(id)) roles.set(id, []);
  const people = [...roles.entries()];
  const results = useQueries({
    // The key Linked people reads the same records under: one request per person on the page.
    queries: people.map(([id]) => entityQueries.naturalPerson(id)),
  });
  return people.map(([id, held], index) => ({
    id,
    relationship: held.length > 0 ? held.join(', ') : undefined,
    isPrimaryContact: held.includes(PRIMARY_CONTACT),
    person: results[index]?.data,
    loading: results[index]?.isPending ?? false,
  }));
}

/** The primary contact, else the first linked person with an e-mail address. */
export function defaultRecipient(recipients: Recipient[]): Recipient | undefined {
  return (
    recipients.find((recipient) => recipient.isPrimaryContact) ??
    recipients.find((recipient) => recipientEmail(recipient) !== null) ??
    recipients[0]
  );
}
