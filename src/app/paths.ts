/** Every route path of the console, in one place. */
export const paths = {
  login: '/login',
  home: '/',
  reviews: '/reviews',
  entities: '/entities',
  entity: (id: string) => `/entities/${encodeURIComponent(id)}`,
  search: '/search',
  onboard: '/legal-entities/new',
  audit: '/audit',
} as const;
