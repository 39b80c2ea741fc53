import { MAX_ID_LENGTH } from '../../contract/common.ts';

/**
 * What the gateway sends to the identity service is built here from an allow-list of the /api/v2
 * routes, never copied from the request target: an upstream (or a proxy before it) that decodes
 * `%2F`, honours `..;` or takes an absolute URL must not be led outside /api/v2.
 */

interface V2Route {
  methods: readonly string[];
  /** Fixed words, and `:id` where a parameter is taken from the request. */
  segments: readonly string[];
  /** The audit action per method (decisions.md, "Extensions"), and what the id names. */
  actions: Readonly<Record<string, string>>;
  idNames?: 'entity' | 'document';
}

/**
 * The /api/v2 routes of the interface and decisions.md that are forwarded as they are; the
 * client-update routes are the gateway's own (client-updates' plugin over relayed-client-updates.ts).
 */
const V2_ROUTES: readonly V2Route[] = [
  { methods: ['GET'], segments: ['entities'], actions: { GET: 'entity.list' } },
  {
    methods: ['GET', 'POST'],
    segments: ['entities', 'legal-entities'],
    actions: { GET: 'entity.search', POST: 'entity.create' },
  },
  {
    methods: ['GET'],
    segments: ['entities', 'legal-entities', ':id'],
    actions: { GET: 'entity.view' },
    idNames: 'entity',
  },
  {
    methods: ['GET'],
    segments: ['entities', 'natural-persons'],
    actions: { GET: 'entity.search' },
  },
  {
    methods: ['GET'],
    segments: ['entities', 'natural-persons', ':id'],
    actions: { GET: 'entity.view' },
    idNames: 'entity',
  },
  {
    methods: ['GET'],
    segments: ['entities', ':id', 'documents'],
    actions: { GET: 'document.list' },
    idNames: 'entity',
  },
  {
    methods: ['GET'],
    segments: ['documents', ':id'],
    actions: { GET: 'document.view' },
    idNames: 'document',
  },
];

const V2_PREFIX = '/api/v2/';

/** RFC 3986 origin-form: an absolute path of URL characters and an optional query, nothing else. */
const ORIGIN_FORM = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*(\?[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*)?$/;

/**
 * A decoded parameter that could still change the path upstream: a separator, a dot segment, a
 * `;` path parameter (`..;`), a `%` left by double encoding, or a control character.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_PARAMETER = /^\.{1,2}$|[/\\;%\u0000-\u001f\u007f]/;

/**
 * Whether a decoded path parameter can be sent upstream encoded without changing the path; one
 * longer than any ID the contract allows names nothing and is not sent either (404).
 */
export function isSafePathParameter(value: string): boolean {
  return value !== '' && value.length <= MAX_ID_LENGTH && !UNSAFE_PARAMETER.test(value);
}

export interface ForwardTarget {
  /** The method sent upstream: a HEAD's is GET. */
  method: string;
  /** Path and query in origin-form, each parameter percent-encoded by the gateway. */
  path: string;
  /** What the audit trail records for this call. */
  audit: { action: string; entityId?: string; documentId?: string };
}

/** Whether a request target is a plain path (not `http://host/…`, `*`, or raw non-URL bytes). */
export function isOriginForm(target: string): boolean {
  return ORIGIN_FORM.test(target);
}

/** The request to send upstream for an /api/v2 call, or undefined when it is not an API route. */
export function v2TargetOf(requestMethod: string, target: string): ForwardTarget | undefined {
  if (!isOriginForm(target) || !target.startsWith(V2_PREFIX)) return undefined;
  // A HEAD is the GET without its body, as Fastify answers it in embedded mode: sent on as that GET.
  const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
  const queryStart = target.indexOf('?');
  const pathname = queryStart === -1 ? target : target.slice(0, queryStart);
  const rawSegments = pathname.slice(V2_PREFIX.length).split('/');
  for (const route of V2_ROUTES) {
    if (!route.methods.includes(method)) continue;
    const segments = segmentsOf(route, rawSegments);
    if (!segments) continue;
    const query = queryStart === -1 ? '' : queryOf(target.slice(queryStart + 1));
    const parameter = route.segments.indexOf(':id');
    const id = parameter === -1 ? undefined : decodeURIComponent(segments[parameter] ?? '');
    return {
      method,
      path: `${V2_PREFIX}${segments.join('/')}${query === '' ? '' : `?${query}`}`,
      audit: {
        action: route.actions[method] ?? 'entity.list',
        ...(id !== undefined && route.idNames === 'document' ? { documentId: id } : {}),
        ...(id !== undefined && route.idNames === 'entity' ? { entityId: id } : {}),
      },
    };
  }
  return undefined;
}

/** The route's segments with each parameter decoded, checked and encoded again; undefined if not this route. */
function segmentsOf(route: V2Route, rawSegments: string[]): string[] | undefined {
  if (route.segments.length !== rawSegments.length) return undefined;
  const built: string[] = [];
  for (const [index, segment] of route.segments.entries()) {
    const raw = rawSegments[index] ?? '';
    if (!segment.startsWith(':')) {
      if (raw !== segment) return undefined;
      built.push(segment);
      continue;
    }
    const value = decodedOrUndefined(raw);
    if (value === undefined || !isSafePathParameter(value)) return undefined;
    built.push(encodeURIComponent(value));
  }
  return built;
}

function decodedOrUndefined(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** The query rebuilt from its parsed parameters, so only what they say is sent on. */
function queryOf(rawQuery: string): string {
  return new URLSearchParams(rawQuery).toString();
}
