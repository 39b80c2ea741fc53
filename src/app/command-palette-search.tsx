import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowRight, IconBuilding, IconId, IconUser } from '@tabler/icons-react';
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { LegalEntity, NaturalPerson } from '../../contract/entities.ts';
import {
  isUuid,
  looksLikeId,
  type PaletteItem,
  type PaletteSearchState,
  type PaletteSection,
} from '../features/command-palette/palette-items.ts';
import { entityQueries } from '../lib/entity-queries.ts';
import {
  companySearch,
  peopleSearch,
  searchParamsFromQuery,
} from '../features/entities/components/search-params.ts';
import { ApiError } from '../lib/api-client.ts';
import { paths } from '../lib/paths.ts';

/** Results resolved to names per collection: enough to recognise one without flooding the server. */
export const PALETTE_RESULTS_PER_KIND = 5;
const DEBOUNCE_MS = 250;

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;
const errorMessage = (error: unknown) =>
  error instanceof Error ? error.message : 'The request failed.';

const companyName = (entity: LegalEntity) => entity.corporateInformation.companyName;
const personName = ({ personalInformation: p }: NaturalPerson) =>
  [p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ');
const details = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' · ');

function resolved<T>(
  ids: string[],
  results: UseQueryResult<T>[],
  toItem: (id: string, entity: T) => PaletteItem,
  onFailure: (id: string, error: unknown) => PaletteItem,
): PaletteItem[] {
  return ids.flatMap((id, at) => {
    const result = results[at];
    if (result?.isSuccess) return [toItem(id, result.data)];
    if (result?.isError) return [onFailure(id, result.error)];
    return [];
  });
}

/**
 * The palette's entity search: the text as a company name and as a last name (each list's first
 * few IDs resolved to names through the shared cache), and as an ID when it looks like one.
 * Typing is debounced; a superseded request is cancelled, as its query loses its last observer.
 */
export function useEntityPaletteSearch(
  query: string,
  go: (to: string) => void,
): PaletteSearchState {
  const text = query.trim();
  const [debounced] = useDebouncedValue(text, DEBOUNCE_MS);
  const settled = debounced === text;
  const byName = debounced.length >= 2 && !isUuid(debounced) && !/\p{Cc}/u.test(debounced);
  const idText = looksLikeId(debounced) ? debounced : '';

  const companies = useQuery({
    ...entityQueries.search('legal-entities', { companyName: debounced }),
    enabled: byName && debounced.length <= 200,
  });
  const people = useQuery({
    ...entityQueries.search('natural-persons', { lastName: debounced }),
    enabled: byName && debounced.length <= 100,
  });
  const companyIds = (companies.data ?? []).slice(0, PALETTE_RESULTS_PER_KIND);
  const personIds = (people.data ?? []).slice(0, PALETTE_RESULTS_PER_KIND);
  const companyDetails = useQueries({
    queries: companyIds.map((id) => entityQueries.legalEntity(id)),
  });
  const personDetails = useQueries({
    queries: personIds.map((id) => entityQueries.naturalPerson(id)),
  });
  // An ID names either kind: a legal entity first, then a natural person on 404 (as the entity page).
  const legalById = useQuery({ ...entityQueries.legalEntity(idText), enabled: idText !== '' });
  const personById = useQuery({
    ...entityQueries.naturalPerson(idText),
    enabled: idText !== '' && isNotFound(legalById.error),
  });

  const sections: PaletteSection[] = [];
  if (looksLikeId(text)) {
    let description = 'Looking it up…';
    if (settled && legalById.isSuccess)
      description = `Legal entity · ${companyName(legalById.data)}`;
    else if (settled && personById.isSuccess)
      description = `Natural person · ${personName(personById.data)}`;
    else if (settled && isNotFound(personById.error))
      description = 'No legal entity or natural person has this ID';
    else if (settled && legalById.isError && !isNotFound(legalById.error))
      description = `It could not be looked up: ${errorMessage(legalById.error)}`;
    sections.push({
      id: 'by-id',
      title: 'By ID',
      items: [
        {
          id: `id:${text}`,
          label: `Open entity ${text}`,
          description,
          icon: <IconId size={20} stroke={1.5} aria-hidden />,
          onSelect: () =>
            go(paths.entity(text, personById.isSuccess ? 'Natural Person' : undefined)),
        },
      ],
    });
  }

  if (settled && byName) {
    const companyItems = resolved(
      companyIds,
      companyDetails,
      (id, entity) => ({
        id: `company:${id}`,
        label: companyName(entity),
        description: details(
          'Legal entity',
          entity.corporateInformation.country,
          entity.kycMetaData?.kycStatus,
        ),
        icon: <IconBuilding size={20} stroke={1.5} aria-hidden />,
        onSelect: () => go(paths.entity(id)),
      }),
      (id, error) => ({
        id: `company:${id}`,
        label: id,
        description: `Legal entity · ${errorMessage(error)}`,
        icon: <IconBuilding size={20} stroke={1.5} aria-hidden />,
        onSelect: () => go(paths.entity(id)),
      }),
    );
    const allCompanies = companies.data?.length ?? 0;
    if (allCompanies > PALETTE_RESULTS_PER_KIND) {
      companyItems.push({
        id: 'companies:all',
        label: `All ${allCompanies} companies matching “${debounced}”`,
        description: 'Open the search page',
        icon: <IconArrowRight size={20} stroke={1.5} aria-hidden />,
        onSelect: () =>
          go(
            `${paths.search}?${searchParamsFromQuery(companySearch, { companyName: debounced }).toString()}`,
          ),
      });
    }
    if (companyItems.length > 0)
      sections.push({ id: 'companies', title: 'Companies', items: companyItems });

    const personItems = resolved(
      personIds,
      personDetails,
      (id, person) => ({
        id: `person:${id}`,
        label: personName(person),
        description: details(
          'Natural person',
          person.personalInformation.countryCode,
          person.kycMetaData.kycStatus,
        ),
        icon: <IconUser size={20} stroke={1.5} aria-hidden />,
        onSelect: () => go(paths.entity(id, 'Natural Person')),
      }),
      (id, error) => ({
        id: `person:${id}`,
        label: id,
        description: `Natural person · ${errorMessage(error)}`,
        icon: <IconUser size={20} stroke={1.5} aria-hidden />,
        onSelect: () => go(paths.entity(id, 'Natural Person')),
      }),
    );
    const allPeople = people.data?.length ?? 0;
    if (allPeople > PALETTE_RESULTS_PER_KIND) {
      personItems.push({
        id: 'people:all',
        label: `All ${allPeople} people matching “${debounced}”`,
        description: 'Open the search page',
        icon: <IconArrowRight size={20} stroke={1.5} aria-hidden />,
        onSelect: () =>
          go(
            `${paths.search}?${searchParamsFromQuery(peopleSearch, { lastName: debounced }).toString()}`,
          ),
      });
    }
    if (personItems.length > 0)
      sections.push({ id: 'people', title: 'People', items: personItems });
  }

  const loading = [companies, people, ...companyDetails, ...personDetails].some(
    (result) => result.isFetching,
  );
  const failure = [companies, people].find((result) => result.isError)?.error;
  return {
    sections,
    pending:
      !settled || loading || (idText !== '' && (legalById.isFetching || personById.isFetching)),
    error: failure ? errorMessage(failure) : undefined,
  };
}
