import crypto from 'node:crypto';
import {
  documentDetailResponseSchema,
  entityListResponseSchema,
  legalEntityResponseSchema,
  naturalPersonResponseSchema,
  searchResponseSchema,
} from '../../contract/entities.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { ensureDemoData } from './demo.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  expect(await ensureDemoData(server.app.services)).not.toBeNull();
}, 120_000);

afterAll(async () => {
  await server.close();
});

describe('demo data through the API', () => {
  it('lists as legal entities with verifications and documents under the contract schema', async () => {
    const response = await server.request(
      '/api/v2/entities?type=legal-entities&limit=100&corporateVerification=true&supportingDocuments=true',
    );
    expect(response.status).toBe(200);
    const list = entityListResponseSchema.parse(response.body);
    expect(list.data).toHaveLength(100);
    const legal = list.data.filter((entity) => entity.type === 'Legal Entity');
    expect(legal).toHaveLength(100);
    expect(legal.some((entity) => (entity.corporateVerifications ?? []).length > 0)).toBe(true);
    expect(legal.some((entity) => (entity.supportingDocuments ?? []).length > 0)).toBe(true);
  });

  it('reads a legal entity with its primary contact, who reads back as a natural person', async () => {
    const list = entityListResponseSchema.parse(
      (await server.request('/api/v2/entities?type=legal-entities&limit=50')).body,
    );
    let checked = 0;
    for (const entity of list.data) {
      const detail = legalEntityResponseSchema.parse(
        (await server.request(`/api/v2/entities/legal-entities/${entity.id}`)).body,
      ).data;
      const primary = (detail.linkedEntities ?? []).filter(
        (link) => link.relationship === 'Primary Contact',
      );
      expect(primary.length).toBeLessThanOrEqual(1);
      const contact = primary[0];
      if (!contact) continue;
      const person = naturalPersonResponseSchema.parse(
        (await server.request(`/api/v2/entities/natural-persons/${contact.entityID}`)).body,
      ).data;
      expect(person.personalInformation.firstName).not.toBe('');
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('finds a company by a DUNS with leading zeros given as an integer', async () => {
    const entity = await server.app.services.db
      .selectFrom('legal_entities')
      .select(['entity_id', 'duns'])
      .where('duns', 'like', '0%')
      .executeTakeFirstOrThrow();
    const response = await server.request(
      `/api/v2/entities/legal-entities?duns=${String(Number(entity.duns))}`,
    );
    expect(searchResponseSchema.parse(response.body).data).toContain(entity.entity_id);
  });

  it('finds every company whose name has non-ASCII letters by that name in capitals and in lower case', async () => {
    const rows = await server.app.services.db
      .selectFrom('legal_entities')
      .select(['entity_id', 'company_name'])
      .execute();
    const accented = rows.filter((row) => /[^\p{ASCII}]/u.test(row.company_name));
    expect(accented.length).toBeGreaterThan(10);
    expect(accented.some((row) => row.company_name === row.company_name.toUpperCase())).toBe(true);
    expect(accented.some((row) => row.company_name.includes('ß'))).toBe(true);
    for (const row of accented) {
      // toUpperCase() spells ß as SS: the search folds both to ss.
      for (const name of [row.company_name.toUpperCase(), row.company_name.toLowerCase()]) {
        const response = await server.request(
          `/api/v2/entities/legal-entities?companyName=${encodeURIComponent(name)}`,
        );
        expect(searchResponseSchema.parse(response.body).data, name).toContain(row.entity_id);
      }
    }
  });

  it('serves each kind of stored file back byte for byte', async () => {
    const documents = await server.app.services.db
      .selectFrom('documents')
      .select(['id', 'mime_type', 'sha256'])
      .orderBy('id')
      .execute();
    for (const mimeType of ['application/pdf', 'image/png']) {
      const document = documents.find((candidate) => candidate.mime_type === mimeType);
      if (!document) throw new Error(`no ${mimeType} document`);
      const detail = documentDetailResponseSchema.parse(
        (await server.request(`/api/v2/documents/${document.id}`)).body,
      ).data;
      const bytes = Buffer.from(detail.file, 'base64');
      expect(detail.mimeType).toBe(mimeType);
      expect(detail.fileSize).toBe(bytes.length);
      expect(crypto.createHash('sha256').update(bytes).digest('hex')).toBe(document.sha256);
    }
  });
});
