import {
  MantineProvider,
  createTheme,
  localStorageColorSchemeManager,
  darken,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import classes from './providers.module.css';

// The toasts' container (its transitions and portal) loads beside the first page instead of in
// the entry every page waits for; toasts shown before it arrives wait in its store.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((module) => ({ default: module.Notifications })),
);

const LIGHT_HUES = new Set(['yellow', 'orange', 'lime']);

// Mantine's filled and light variants put small text below WCAG AA (4.5:1) for most hues; darker
// shades (or dark text on the light hues) keep badges and buttons readable.
const variantColorResolver: VariantColorsResolver = (input) => {
  const defaults = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({
    color: input.color ?? input.theme.primaryColor,
    theme: input.theme,
  });
  const shades = parsed.isThemeColor ? input.theme.colors[parsed.color] : undefined;
  if (!shades) return defaults;
  if (input.variant === 'filled') {
    return LIGHT_HUES.has(parsed.color)
      ? {
          ...defaults,
          background: shades[5],
          hover: shades[6],
          color: 'var(--mantine-color-black)',
        }
      : {
          ...defaults,
          background: darken(shades[9], 0.15),
          hover: darken(shades[9], 0.3),
          color: 'var(--mantine-color-white)',
        };
  }
  if (input.variant === 'light' || input.variant === 'outline' || input.variant === 'subtle') {
    // Dark text on the light scheme, light text on the dark one: each above 4.5:1 on its background.
    const text = `light-dark(${darken(shades[9], 0.3)}, ${shades[2]})`;
    return {
      ...defaults,
      color: text,
      border: input.variant === 'outline' ? `1px solid ${text}` : defaults.border,
    };
  }
  return defaults;
};

export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'indigo',
  // Shade 7 keeps white button text and links above WCAG AA contrast (4.5:1).
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // Mantine keeps every select's options mounted (hidden) from the first render: 249 countries
    // were half the entity list's DOM at load. They mount when the list opens instead.
    Combobox: { defaultProps: { keepMounted: false } },
  },
});

// Mantine's default dimmed grey is 3.3:1 on white; gray.7 still reads as secondary and passes AA.
const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': resolved.colors.gray[7],
    // Links stay above 4.5:1 on hovered and striped table rows too.
    '--mantine-color-anchor': resolved.colors.indigo[9],
    // Error text and invalid fields: red.9 is 5.5:1 on white and 5.2:1 on gray.0 (red.6 was 3.3:1).
    '--mantine-color-error': resolved.colors.red[9],
    // The page behind cards and papers: a shade off the cards' own background in either scheme.
    '--kyc-color-page': resolved.colors.gray[0],
    '--kyc-color-surface-muted': resolved.colors.gray[0],
  },
  dark: {
    // On dark.7 to dark.5 backgrounds red.4 keeps 6.7:1 to 4.8:1 (Mantine's red.8 is 3.4:1).
    '--mantine-color-error': resolved.colors.red[4],
    // Mantine's dark dimmed (dark.2) and anchor (indigo.4) stay above 4.5:1 on dark.7 and dark.6 rows.
    '--mantine-color-dimmed': resolved.colors.dark[1],
    '--mantine-color-anchor': resolved.colors.indigo[3],
    '--kyc-color-page': resolved.colors.dark[8],
    '--kyc-color-surface-muted': resolved.colors.dark[6],
  },
});

/** The key `public/color-scheme.js` reads before the first paint, so both agree on the scheme. */
export const COLOR_SCHEME_STORAGE_KEY = 'kyc-desk.color-scheme';

// Kept per browser (light, dark or auto); auto follows prefers-color-scheme.
const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });

/** Mantine, notifications and the query cache; tests pass `env="test"` to show popovers at once. */
export function AppProviders({
  queryClient,
  children,
  env,
}: {
  queryClient: QueryClient;
  children: ReactNode;
  env?: 'test';
}) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      {...(env ? { env } : {})}
    >
      <Suspense fallback={null}>
        <Notifications position="top-right" classNames={{ root: classes.notifications }} />
      </Suspense>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
