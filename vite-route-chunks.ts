/**
 * How the console's first pages reach a phone: few files, asked for at once.
 *
 * On a phone (Lighthouse's slow 4G: 150 ms a round trip, six connections) each of the ~70 small
 * chunks an entity page needed cost a round trip of its own, and the page's chunks were asked for
 * only after the entry had arrived and run. `routeChunkGroups` puts the code of the sign-in page,
 * the signed-in shell and the two entity pages into one chunk each (beside one for the entry);
 * `routeChunkPreload` writes into index.html which chunks each address needs, for
 * `public/route-preload.js` to ask for them beside the entry. Everything else (dialogs, viewer,
 * palette, onboarding, charts) still loads on demand.
 */
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { paths } from './src/lib/paths.ts';

interface RouteGroup {
  /** The chunk's name: that of its first module, as the automatic chunk had (check-bundle.ts looks for `login-page-`). */
  name: string;
  /** The console's modules these reach statically (the libraries they use follow them). */
  roots?: string[];
  /** Only what every root reaches, rather than what any of them does. */
  shared?: boolean;
  /** Library modules, by path. */
  test?: RegExp;
}

const LOGIN_PAGE = 'src/features/auth/components/login-page.tsx';
const ROUTE_PREFETCH = 'src/app/route-prefetch.ts';
const SHELL = 'src/app/app-layout.tsx';
const ENTITY_LIST = 'src/app/routes/entities-route.tsx';
const ENTITY_PAGE = 'src/app/routes/entity-detail-route.tsx';

/** In order: a module two groups reach goes with the first (the shell imports the sign-in form from the sign-in page's chunk). */
const ROUTE_GROUPS: RouteGroup[] = [
  { name: 'login-page', roots: [LOGIN_PAGE] },
  // Small and early: the route loaders start their requests as soon as the entry has run.
  { name: 'route-prefetch', roots: [ROUTE_PREFETCH] },
  // The toasts' container, which every page loads after its first paint (providers.tsx), with
  // the parts of Mantine it needs, so the sign-in page does not load the next group for it.
  { name: 'notifications', test: /[\\/]node_modules[\\/]@mantine[\\/]notifications[\\/]/ },
  // The UI libraries the signed-in pages use beyond the entry's, in one file: each page reaches all
  // of them through the packages' index modules, so they cannot be told apart by import.
  {
    name: 'ui',
    test: /[\\/]node_modules[\\/](@mantine[\\/](core|hooks)|@tabler[\\/]icons-react|@tanstack)[\\/]/,
  },
  { name: 'app-layout', roots: [SHELL] },
  // What the list and the entity page share, so neither loads the other's chunk.
  { name: 'entity-pages', roots: [ENTITY_LIST, ENTITY_PAGE], shared: true },
  { name: 'entities-route', roots: [ENTITY_LIST] },
  { name: 'entity-detail-route', roots: [ENTITY_PAGE] },
];

/** The pages' addresses (first match wins) and the modules each starts loading at once. */
const ROUTE_PRELOADS: { path: string; modules: string[] }[] = [
  { path: `^${paths.login}/?$`, modules: [LOGIN_PAGE] },
  { path: `^${paths.entities}/?$`, modules: [ROUTE_PREFETCH, SHELL, ENTITY_LIST] },
  { path: `^${paths.entities}/.+`, modules: [ROUTE_PREFETCH, SHELL, ENTITY_PAGE] },
  { path: `^${paths.home}`, modules: [ROUTE_PREFETCH, SHELL] },
];

type ModuleGraph = Pick<Rolldown.ChunkingContext, 'getModuleInfo'>;

const absolute = (file: string) => path.resolve(file);

const isLibrary = (id: string) => /[\\/]node_modules[\\/]/.test(id) || id.startsWith('\0');

/** The console's modules a module reaches by static imports (libraries are left to the bundler). */
function staticClosure(graph: ModuleGraph, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = roots.map(absolute);
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id) || isLibrary(id)) continue;
    seen.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** Each console module of the groups' closures to its group, leaving the entry's to the entry. */
function assignGroups(graph: ModuleGraph): Map<string, string> {
  const entry = staticClosure(graph, ['src/main.tsx']);
  const owner = new Map<string, string>();
  for (const group of ROUTE_GROUPS) {
    if (!group.roots) continue;
    const [first = new Set<string>(), ...others] = group.shared
      ? group.roots.map((root) => staticClosure(graph, [root]))
      : [staticClosure(graph, group.roots)];
    for (const id of first) {
      if (entry.has(id) || owner.has(id) || others.some((closure) => !closure.has(id))) continue;
      owner.set(id, group.name);
    }
  }
  return owner;
}

/**
 * `build.rolldownOptions.output.codeSplitting.groups`: the entry's modules in one chunk, each
 * group's in one more, earlier groups first. A group takes the libraries its modules import
 * (`includeDependenciesRecursively`) unless an earlier one has.
 */
export function routeChunkGroups(): Rolldown.CodeSplittingGroup[] {
  // One build, one module graph: assigned on the first module asked about.
  let owner: Map<string, string> | undefined;
  const ownerOf = (id: string, graph: ModuleGraph) => (owner ??= assignGroups(graph)).get(id);
  return [
    { name: 'entry', debugName: 'entry', tags: ['$initial'], priority: ROUTE_GROUPS.length + 1 },
    ...ROUTE_GROUPS.map((group, index) => ({
      debugName: group.name,
      priority: ROUTE_GROUPS.length - index,
      ...(group.test
        ? { name: group.name, test: group.test }
        : {
            name: (id: string, graph: ModuleGraph) =>
              ownerOf(id, graph) === group.name ? group.name : null,
          }),
    })),
  ];
}

/**
 * Writes `<script type="application/json" id="route-chunks">` into the built index.html (for each
 * address pattern, the scripts and style sheets its page needs beyond the entry's) and, after it,
 * `public/route-preload.js`, which asks for them.
 */
export function routeChunkPreload(): Plugin {
  return {
    name: 'kyc-desk:route-chunk-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter(
          (output): output is Rolldown.OutputChunk => output.type === 'chunk',
        );
        const chunkOf = (module: string) =>
          chunks.find((chunk) => chunk.moduleIds.includes(absolute(module)));
        const filesOf = (roots: Rolldown.OutputChunk[]) => {
          const files = new Set<string>();
          const queue = [...roots];
          for (let chunk = queue.pop(); chunk !== undefined; chunk = queue.pop()) {
            if (files.has(chunk.fileName)) continue;
            files.add(chunk.fileName);
            for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
            for (const imported of chunk.imports) {
              const next = bundle[imported];
              if (next?.type === 'chunk') queue.push(next);
            }
          }
          return files;
        };
        const entryFiles = filesOf(chunks.filter((chunk) => chunk.isEntry));
        const routes = ROUTE_PRELOADS.map((route) => {
          const roots = route.modules.map(chunkOf).filter((chunk) => chunk !== undefined);
          if (roots.length !== route.modules.length) {
            throw new Error(
              `route-chunk-preload: no chunk holds one of ${route.modules.join(', ')}`,
            );
          }
          const files = [...filesOf(roots)].filter((file) => !entryFiles.has(file));
          return { path: route.path, files: files.map((file) => `/${file}`) };
        });
        return {
          html,
          tags: [
            {
              tag: 'script',
              attrs: { type: 'application/json', id: 'route-chunks' },
              children: JSON.stringify(routes),
              injectTo: 'head',
            },
            // After the list: the parser has read it before this script can run.
            { tag: 'script', attrs: { async: true, src: '/route-preload.js' }, injectTo: 'head' },
          ],
        };
      },
    },
  };
}
