import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * preValidation hook on the root instance, in place of @fastify/multipart's
 * `attachFieldsToBody: 'keyValues'`: a multipart form becomes `request.body` as `{ name: value }`
 * (a repeated name gives an array). The plugin's own hook lets the parser's errors (a truncated
 * body, a missing boundary, broken part headers) through as 500; here they are 400.
 */
export async function readMultipartFields(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const body: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) {
      // The plugin's limits (no files, a few fields) answer anything else with their own 4xx.
      const value: unknown = part.type === 'file' ? await part.toBuffer() : part.value;
      const earlier = body[part.fieldname];
      body[part.fieldname] =
        earlier === undefined
          ? value
          : [...(Array.isArray(earlier) ? (earlier as unknown[]) : [earlier]), value];
    }
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw error;
    throw new ApiError(400, 'The multipart body could not be read: it is incomplete or malformed.');
  }
  request.body = body;
}
