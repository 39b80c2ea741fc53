import { useQueries } from '@tanstack/react-query';
import { PRIMARY_CONTACT, type LegalEntity, type NaturalPerson } from '../../contract/entities.ts';
import { clientUpdateQueries } from './api/client-update-queries.ts';

export interface Recipient {
  id: string;
  relationship: string | undefined;
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

/** The people linked to the entity, with their records read one by one (the link holds only an id). */
export function useRecipients(entity: LegalEntity): Recipient[] {
  const links = entity.linkedEntities ?? [];
  const results = useQueries({
    queries: links.map((link) => clientUpdateQueries.recipient(link.entityID)),
  });
  return links.map((link, index) => ({
    id: link.entityID,
    relationship: link.relationship,
    person: results[index]?.data,
    loading: results[index]?.isPending ?? false,
  }));
}

/** The primary contact, else the first linked person with an e-mail address. */
export function defaultRecipient(recipients: Recipient[]): Recipient | undefined {
  return (
    recipients.find((recipient) => recipient.relationship === PRIMARY_CONTACT) ??
    recipients.find((recipient) => recipientEmail(recipient) !== null) ??
    recipients[0]
  );
}
