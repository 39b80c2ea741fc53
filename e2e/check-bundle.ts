/**
 * Checks the built console in dist/ (run after `npm run build`): zod in at most one chunk, no
 * React Router development build, no source map served, every chunk index.html preloads present,
 * a stylesheet for every Mantine class the scripts name, and prints what the sign-in page,
 * /entities and an entity page load.
 * Exits 1 naming each failure.
 */
import fs from 'node:fs';
import path from 'node:path';

const DIST = process.argv[2] ?? 'dist';
const ASSETS = path.join(DIST, 'assets');

/** Strings only these builds carry (kept by the minifier: error messages and class names). */
const ZOD_MARK = '$ZodObject';
/** Inside React Router's `if (ENABLE_DEV_WARNINGS)`, which the production build drops. */
const REACT_ROUTER_DEV_MARK = 'Error handled by React Router default ErrorBoundary';

const read = (file: string) => fs.readFileSync(path.join(ASSETS, file), 'utf8');
const scripts = fs.readdirSync(ASSETS).filter((file) => file.endsWith('.js'));
const failures: string[] = [];

const zodChunks = scripts.filter((file) => read(file).includes(ZOD_MARK));
if (zodChunks.length > 1)
  failures.push(`zod is bundled in ${zodChunks.length} chunks: ${zodChunks.join(', ')}`);

const devRouter = scripts.filter((file) => read(file).includes(REACT_ROUTER_DEV_MARK));
if (devRouter.length > 0)
  failures.push(`React Router's development build is in ${devRouter.join(', ')}`);

const servedMaps = fs
  .readdirSync(DIST, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.map'));
if (servedMaps.length > 0)
  failures.push(`${servedMaps.length} source maps in ${DIST}/, such as ${servedMaps[0]}`);
const mapLinks = scripts.filter((file) => /\/[/*]# sourceMappingURL=/.test(read(file)));
if (mapLinks.length > 0)
  failures.push(`${mapLinks.length} scripts name a source map, such as ${mapLinks[0]}`);

// Mantine's styles come one component at a time (src/app/mantine.css): each class a bundled
// component names needs its rules in one of dist's stylesheets.
const MANTINE_CLASS = /\bm_[0-9a-f]{8}\b/g;
const MANTINE_STYLES = 'node_modules/@mantine/core/styles';
const styled = new Set(
  fs
    .readdirSync(ASSETS)
    .filter((file) => file.endsWith('.css'))
    .flatMap((file) => read(file).match(MANTINE_CLASS) ?? []),
);
const unstyled = new Set(
  scripts
    .flatMap((file) => read(file).match(MANTINE_CLASS) ?? [])
    .filter((name) => !styled.has(name)),
);
if (unstyled.size > 0) {
  const sheets = fs
    .readdirSync(MANTINE_STYLES)
    .filter((file) => !file.endsWith('.layer.css'))
    .filter((file) => {
      const sheet = fs.readFileSync(path.join(MANTINE_STYLES, file), 'utf8');
      return [...unstyled].some((name) => sheet.includes(`.${name}`));
    });
  failures.push(
    `${unstyled.size} Mantine classes have no styles; import into src/app/mantine.css: ${sheets.join(', ') || [...unstyled].join(', ')}`,
  );
}

/** A chunk and every chunk it imports statically: what loads before it can run. */
function staticClosure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of read(file).matchAll(/(?:import|from)\s*["']\.\/([\w.-]+\.js)["']/g)) {
      if (match[1]) queue.push(match[1]);
    }
  }
  return seen;
}

const size = (file: string, suffix = '') => {
  const full = path.join(ASSETS, file + suffix);
  return fs.existsSync(full) ? fs.statSync(full).size : fs.statSync(path.join(ASSETS, file)).size;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const indexHtml = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
const entry = /src="\/assets\/([\w.-]+\.js)"/.exec(indexHtml)?.[1];
// What each first page loads before it can run: the entry and the chunks index.html lists for it
// (vite-route-chunks.ts), which public/route-preload.js asks for beside the entry.
const routeChunks = /<script type="application\/json" id="route-chunks">([^<]*)<\/script>/.exec(
  indexHtml,
)?.[1];
if (!entry || !routeChunks) {
  failures.push('index.html names no entry script or lists no route chunks (#route-chunks)');
} else {
  const examples: Record<string, string> = {
    '/login': '/login',
    '/entities': '/entities',
    '/entities/:id': '/entities/00000000-0000-4000-8000-000000000000',
  };
  const routes = JSON.parse(routeChunks) as { path: string; files: string[] }[];
  for (const [page, example] of Object.entries(examples)) {
    const route = routes.find((candidate) => new RegExp(candidate.path).test(example));
    const files = (route?.files ?? []).map((file) => file.replace(/^\/assets\//, ''));
    const missing = files.filter((file) => !fs.existsSync(path.join(ASSETS, file)));
    if (missing.length > 0)
      failures.push(`#route-chunks names missing files: ${missing.join(', ')}`);
    const present = files.filter((file) => file.endsWith('.js') && !missing.includes(file));
    const pageScripts = [...staticClosure([entry, ...present])];
    const raw = pageScripts.reduce((sum, file) => sum + size(file), 0);
    const brotli = pageScripts.reduce((sum, file) => sum + size(file, '.br'), 0);
    process.stdout.write(
      `${page}: ${pageScripts.length} scripts, ${kb(raw)} (${kb(brotli)} brotli)\n`,
    );
  }
}
const total = scripts.reduce((sum, file) => sum + size(file), 0);
const totalBrotli = scripts.reduce((sum, file) => sum + size(file, '.br'), 0);
process.stdout.write(
  `all scripts: ${scripts.length}, ${kb(total)} (${kb(totalBrotli)} brotli); zod in ${zodChunks.join(', ') || 'none'}\n`,
);

for (const failure of failures) process.stderr.write(`bundle check: ${failure}\n`);
process.exitCode = failures.length > 0 ? 1 : 0;
