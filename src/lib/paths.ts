/** What a link knows of the entity it opens; the entity page asks the matching endpoint first. */
export type EntityLinkType = 'Legal Entity' | 'Natural Person';

/** Every route path of the console, in one place. */
export const paths = {
  login: '/login',
  home: '/',
  reviews: '/reviews',
  waiting: '/waiting-for-me',
  entities: '/entities',
  /** A person's link carries its type, so opening it never asks the legal-entity endpoint first. */
  entity: (id: string, type?: EntityLinkType | null) =>
    type === 'Natural Person'
      ? `/entities/people/${encodeURIComponent(id)}`
      : `/entities/${encodeURIComponent(id)}`,
  search: '/search',
  onboard: '/legal-entities/new',
  audit: '/audit',
} as const;
