import { queryOptions } from '@tanstack/react-query';
import {
  documentDetailResponseSchema,
  documentListResponseSchema,
  entityListResponseSchema,
  legalEntityResponseSchema,
  naturalPersonResponseSchema,
  searchResponseSchema,
  type EntityTypeFilter,
  type LegalEntitySearchQuery,
  type NaturalPersonSearchQuery,
} from '../../contract/entities.ts';
import { apiRequest } from './api-client.ts';

export interface EntityListFilters {
  type: EntityTypeFilter;
  limit: number;
  start: number;
  descending: boolean;
  corporateVerification: boolean;
  supportingDocuments: boolean;
}

/** The two searchable collections, as they appear in the API's paths. */
export type EntityCollection = 'legal-entities' | 'natural-persons';

/** One factory for every entity and document query, general to specific, so one invalidation reaches all. */
export const entityQueries = {
  all: () => ['entities'] as const,
  lists: () => [...entityQueries.all(), 'list'] as const,
  list: (filters: EntityListFilters) =>
    queryOptions({
      queryKey: [...entityQueries.lists(), filters] as const,
      queryFn: ({ signal }) =>
        apiRequest('/api/v2/entities', {
          query: { ...filters },
          schema: entityListResponseSchema,
          signal,
        }).then((envelope) => envelope.data),
    }),
  /** Both collections answer a search with matching IDs, oldest first. */
  search: (
    collection: EntityCollection,
    query: LegalEntitySearchQuery | NaturalPersonSearchQuery,
  ) =>
    queryOptions({
      queryKey: [...entityQueries.all(), 'search', collection, query] as const,
      queryFn: ({ signal }) =>
        apiRequest(`/api/v2/entities/${collection}`, {
          query: { ...query },
          schema: searchResponseSchema,
          signal,
        }).then((envelope) => envelope.data),
    }),
  legalEntity: (id: string) =>
    queryOptions({
      queryKey: [...entityQueries.all(), 'legal-entity', id] as const,
      queryFn: ({ signal }) =>
        apiRequest(`/api/v2/entities/legal-entities/${encodeURIComponent(id)}`, {
          schema: legalEntityResponseSchema,
          signal,
        }).then((envelope) => envelope.data),
    }),
  naturalPersons: () => [...entityQueries.all(), 'natural-person'] as const,
  naturalPerson: (id: string) =>
    queryOptions({
      queryKey: [...entityQueries.naturalPersons(), id] as const,
      queryFn: ({ signal }) =>
        apiRequest(`/api/v2/entities/natural-persons/${encodeURIComponent(id)}`, {
          schema: naturalPersonResponseSchema,
          signal,
        }).then((envelope) => envelope.data),
    }),
  documents: (entityId: string) =>
    queryOptions({
      queryKey: [...entityQueries.all(), 'documents', entityId] as const,
      queryFn: ({ signal }) =>
        apiRequest(`/api/v2/entities/${encodeURIComponent(entityId)}/documents`, {
          schema: documentListResponseSchema,
          signal,
        }).then((envelope) => envelope.data),
    }),
  /** Documents are immutable once stored, so a fetched file stays fresh; the viewer passes progress. */
  document: (documentId: string, onProgress?: (loaded: number, total: number | null) => void) =>
    queryOptions({
      queryKey: ['documents', documentId] as const,
      queryFn: ({ signal }) =>
        apiRequest(`/api/v2/documents/${encodeURIComponent(documentId)}`, {
          schema: documentDetailResponseSchema,
          signal,
          ...(onProgress ? { onProgress } : {}),
        }).then((envelope) => envelope.data),
      staleTime: Infinity,
      gcTime: 0,
    }),
};
