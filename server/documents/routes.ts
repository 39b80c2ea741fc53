import type { FastifyPluginCallback } from 'fastify';
import { READERS } from '../auth/caller.ts';
import {
  documentDetailResponseSchema,
  documentListResponseSchema,
} from '../../contract/entities.ts';
import { entitiesRepository } from '../entities/repository.ts';
import { idParamsSchema } from '../http/params.ts';
import { ApiError } from '../http/errors.ts';
import { defineRoute } from '../http/route.ts';
import type { AppServices } from '../services.ts';
import { documentEnvelopeStream } from './document-json.ts';
import { documentDetailFieldsOf, documentMetadataOf } from './mappers.ts';
import { documentsRepository } from './repository.ts';

export interface DocumentsPluginOptions {
  services: AppServices;
}

export const documentsPlugin: FastifyPluginCallback<DocumentsPluginOptions> = (
  app,
  { services },
  done,
) => {
  const documents = documentsRepository(services.db);
  const entities = entitiesRepository(services.db);

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/entities/:id/documents',
      summary: "List an entity's supporting documents",
      description: 'Metadata only (with mimeType and fileSize), oldest first.',
      tag: 'Documents',
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      response: {
        status: 200,
        schema: documentListResponseSchema,
        description: 'Document metadata',
      },
      errors: [404],
      audit: { action: 'document.list', targetOf: ({ params }) => ({ entityId: params.id }) },
    },
    async ({ params }) => {
      if (!(await entities.findEntity(params.id))) {
        throw new ApiError(404, `No entity has the id ${params.id}.`);
      }
      return (await documents.metadataOfEntities([params.id])).map(documentMetadataOf);
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/documents/:id',
      summary: 'Get a supporting document',
      description: 'Metadata and the file itself, base64-encoded in `file`.',
      tag: 'Documents',
      auth: 'caller',
      roles: READERS,
      params: idParamsSchema,
      response: {
        status: 200,
        schema: documentDetailResponseSchema,
        description: 'The document with its bytes',
      },
      errors: [404],
      audit: { action: 'document.view', targetOf: ({ params }) => ({ documentId: params.id }) },
    },
    async ({ params, reply, audit }) => {
      const document = await documents.findStored(params.id);
      if (!document) throw new ApiError(404, `No document has the id ${params.id}.`);
      // Before the first byte leaves: a download that cannot be recorded does not happen.
      await audit.record({
        entityId: document.entity_id,
        detail: { fileName: document.file_name },
      });
      const { stream, contentLength } = documentEnvelopeStream(
        documentDetailFieldsOf(document),
        await documents.plainBytesOf(document, services.documentKeys),
      );
      await reply
        .code(200)
        .type('application/json; charset=utf-8')
        .header('Content-Length', contentLength)
        .send(stream);
      return undefined;
    },
  );
  done();
};
