import type { ComponentType } from 'react';
import { Navigate, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../lib/paths.ts';
import { RouteErrorPage } from './route-error-page.tsx';

/** A page of another feature, under its own tab title. */
function titled(title: string, Page: ComponentType): ComponentType {
  return function TitledPage() {
    useDocumentTitle(title);
    return <Page />;
  };
}

type RoutePrefetch = typeof import('./route-prefetch.ts');

/** A loader that starts the page's requests beside its lazy code and never holds the navigation. */
function prefetch(start: (module: RoutePrefetch, args: LoaderFunctionArgs) => void) {
  return (args: LoaderFunctionArgs) => {
    void import('./route-prefetch.ts').then((module) => start(module, args));
    return null;
  };
}

/** Nothing while a prefetching loader returns (it returns at once); React Router asks for one. */
const HydrateFallback = () => null;

/** Route modules are loaded on demand so the sign-in page ships no table, form or viewer code. */
export const routes: RouteObject[] = [
  {
    path: paths.login,
    ErrorBoundary: RouteErrorPage,
    lazy: async () => ({
      Component: titled(
        'Sign in',
        (await import('../features/auth/components/login-page.tsx')).LoginPage,
      ),
    }),
  },
  {
    path: paths.home,
    ErrorBoundary: RouteErrorPage,
    loader: prefetch((module) => module.prefetchShell()),
    HydrateFallback,
    lazy: async () => ({ Component: (await import('./app-layout.tsx')).AppLayout }),
    children: [
      { index: true, element: <Navigate to={paths.entities} replace /> },
      {
        path: paths.overview,
        lazy: async () => ({
          Component: (await import('./routes/overview-route.tsx')).OverviewRoute,
        }),
      },
      {
        path: paths.reviews,
        lazy: async () => ({
          Component: (await import('./routes/reviews-route.tsx')).ReviewsRoute,
        }),
      },
      {
        path: paths.waiting,
        lazy: async () => ({
          Component: (await import('./routes/waiting-route.tsx')).WaitingRoute,
        }),
      },
      {
        path: paths.entities,
        loader: prefetch((module, { request }) => module.prefetchEntityList(new URL(request.url))),
        lazy: async () => ({
          Component: (await import('./routes/entities-route.tsx')).EntitiesRoute,
        }),
      },
      {
        path: `${paths.entities}/people/:id`,
        lazy: async () => ({
          Component: (await import('./routes/entity-detail-route.tsx')).NaturalPersonDetailRoute,
        }),
      },
      {
        path: `${paths.entities}/:id`,
        loader: prefetch((module, { params }) => module.prefetchLegalEntity(params.id)),
        lazy: async () => ({
          Component: (await import('./routes/entity-detail-route.tsx')).EntityDetailRoute,
        }),
      },
      {
        path: paths.search,
        lazy: async () => ({
          Component: (await import('../features/entities/components/search-page.tsx')).SearchPage,
        }),
      },
      {
        path: paths.onboard,
        lazy: async () => ({
          Component: (await import('./routes/onboarding-route.tsx')).OnboardingRoute,
        }),
      },
      {
        path: paths.audit,
        lazy: async () => ({
          Component: titled(
            'Audit log',
            (await import('../features/audit/components/audit-log-page.tsx')).AuditLogPage,
          ),
        }),
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('./not-found-page.tsx')).NotFoundPage }),
      },
    ],
  },
];
