import {
  entityListResponseSchema,
  legalEntityResponseSchema,
  type Entity,
} from '../../contract/entities.ts';
import { errorEnvelopeSchema } from '../../contract/common.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { legalEntityPayload, postLegalEntity } from '../testing/test-payloads.ts';
import { testPdf } from '../testing/document-files.ts';

const LEGAL_ENTITIES = 55;

let server: TestServer;
/** Every entity in ascending list order: creation time, then id. */
let ascending: { id: string; type: Entity['type'] }[] = [];

async function list(query: string) {
  const response = await server.request(`/api/v2/entities${query}`);
  expect(response.status).toBe(200);
  return entityListResponseSchema.parse(response.body).data;
}

async function expectBadParameter(query: string, parameter: string) {
  const response = await server.request(`/api/v2/entities${query}`);
  expect(response.status).toBe(400);
  const body = errorEnvelopeSchema.parse(response.body);
  expect(body.message).toContain(parameter);
  expect(body.errors?.map((error) => error.field)).toContain(parameter);
}

const idsOf = (entities: { id: string }[]) => entities.map((entity) => entity.id);

beforeAll(async () => {
  // One second per clock reading, so creation order and created_at order are the same.
  let tick = 0;
  const start = Date.UTC(2026, 0, 1);
  server = await startTestServer({ now: () => new Date(start + 1000 * tick++) });
  for (let index = 0; index < LEGAL_ENTITIES; index += 1) {
    const withDocument = index % 5 === 0;
    const response = await postLegalEntity(
      server,
      legalEntityPayload({
        supportingDocuments: withDocument
          ? [
              {
                fileName: `statement-${index}.pdf`,
                type: 'Bank Statement',
                file: testPdf(`Statement ${index}`).toString('base64'),
              },
            ]
          : [],
      }),
    );
    expect(response.status).toBe(201);
    const created = legalEntityResponseSchema.parse(response.body).data;
    const contactId = created.linkedEntities?.[0]?.entityID;
    if (!contactId) throw new Error('the primary contact was not linked');
    // The legal entity and its contact share created_at, so id decides between them.
    const pair = [
      { id: created.id, type: 'Legal Entity' as const },
      { id: contactId, type: 'Natural Person' as const },
    ].sort((a, b) => (a.id < b.id ? -1 : 1));
    ascending.push(...pair);
  }
});

afterAll(async () => {
  await server.close();
  ascending = [];
});

describe('GET /api/v2/entities', () => {
  it('returns the first 10 entities, oldest first, by default', async () => {
    const entities = await list('');
    expect(idsOf(entities)).toEqual(idsOf(ascending.slice(0, 10)));
    const created = entities.map((entity) =>
      entity.type === 'Legal Entity'
        ? entity.kycMetaData?.createdDateTime
        : entity.kycMetaData.createdDateTime,
    );
    expect(created).toEqual([...created].sort());
  });

  it('takes limit from 1 to 100', async () => {
    expect(idsOf(await list('?limit=1'))).toEqual(idsOf(ascending.slice(0, 1)));
    expect(idsOf(await list('?limit=100'))).toEqual(idsOf(ascending.slice(0, 100)));
    expect(ascending.length).toBeGreaterThan(100);
  });

  it.each(['0', '101', 'abc', '1.5', '-1', ''])('rejects limit=%s naming limit', async (value) => {
    await expectBadParameter(`?limit=${value}`, 'limit');
  });

  it('skips `start` entities and returns nothing past the end', async () => {
    expect(idsOf(await list('?start=3&limit=4'))).toEqual(idsOf(ascending.slice(3, 7)));
    expect(idsOf(await list('?start=105&limit=10'))).toEqual(idsOf(ascending.slice(105)));
    expect(await list(`?start=${ascending.length}`)).toEqual([]);
    expect(idsOf(await list('?start=0&limit=2'))).toEqual(idsOf(ascending.slice(0, 2)));
  });

  it.each(['-1', 'x', '2.5'])('rejects start=%s naming start', async (value) => {
    await expectBadParameter(`?start=${value}`, 'start');
  });

  it('reverses the order with descending=true and keeps it with descending=false', async () => {
    const descending = [...ascending].reverse();
    expect(idsOf(await list('?descending=true&limit=100'))).toEqual(
      idsOf(descending.slice(0, 100)),
    );
    expect(idsOf(await list('?descending=true&start=2&limit=3'))).toEqual(
      idsOf(descending.slice(2, 5)),
    );
    expect(idsOf(await list('?descending=false&limit=100'))).toEqual(
      idsOf(ascending.slice(0, 100)),
    );
  });

  it('filters by type', async () => {
    const legal = await list('?type=legal-entities&limit=100');
    expect(idsOf(legal)).toEqual(idsOf(ascending.filter((e) => e.type === 'Legal Entity')));
    const persons = await list('?type=natural-persons&limit=100');
    expect(idsOf(persons)).toEqual(idsOf(ascending.filter((e) => e.type === 'Natural Person')));
    const all = await list('?type=all&limit=100');
    expect(idsOf(all)).toEqual(idsOf(ascending.slice(0, 100)));
    const newestLegal = await list('?type=legal-entities&descending=true&limit=2');
    expect(idsOf(newestLegal)).toEqual(
      idsOf(
        ascending
          .filter((e) => e.type === 'Legal Entity')
          .reverse()
          .slice(0, 2),
      ),
    );
  });

  it('rejects an unknown type naming type', async () => {
    await expectBadParameter('?type=companies', 'type');
  });

  it('rejects an unknown parameter naming it, so a misspelt limit is not silently ignored', async () => {
    await expectBadParameter('?limt=5', 'limt');
    await expectBadParameter('?limit=5&Limit=6', 'Limit');
  });

  it('omits verifications and documents unless asked, and always carries kycMetaData and links', async () => {
    const entities = await list('?limit=100');
    for (const entity of entities) {
      expect(entity).not.toHaveProperty('corporateVerifications');
      expect(entity).not.toHaveProperty('supportingDocuments');
      expect(entity.kycMetaData?.riskLevel).toBe('Medium');
      if (entity.type === 'Legal Entity') {
        expect(entity.linkedEntities).toEqual([
          { relationship: 'Primary Contact', entityID: expect.any(String) as string },
        ]);
        expect(entity.kycMetaData?.kycStatus).toBe('Accepted');
      }
    }
    const explicitOff = await list(
      '?limit=100&corporateVerification=false&supportingDocuments=false',
    );
    expect(explicitOff).toEqual(entities);
  });

  it('adds corporateVerifications to legal entities only with corporateVerification=true', async () => {
    const entities = await list('?limit=100&corporateVerification=true');
    for (const entity of entities) {
      expect(entity).not.toHaveProperty('supportingDocuments');
      if (entity.type === 'Legal Entity') {
        expect(entity.corporateVerifications).toHaveLength(1);
        expect(entity.corporateVerifications?.[0]?.verificationStatus).toBe('Accepted');
      } else {
        expect(entity).not.toHaveProperty('corporateVerifications');
      }
    }
  });

  it('adds supportingDocuments to legal entities only with supportingDocuments=true', async () => {
    const entities = await list('?type=all&limit=100&supportingDocuments=true');
    for (const entity of entities) {
      expect(entity).not.toHaveProperty('corporateVerifications');
      if (entity.type === 'Natural Person')
        expect(entity).not.toHaveProperty('supportingDocuments');
    }
    const legal = await list('?type=legal-entities&limit=100&supportingDocuments=true');
    expect(legal).toHaveLength(LEGAL_ENTITIES);
    const withDocuments = legal.filter(
      (entity) => entity.type === 'Legal Entity' && entity.supportingDocuments?.length === 1,
    );
    expect(withDocuments.length).toBe(Math.ceil(LEGAL_ENTITIES / 5));
    expect(legal.every((entity) => 'supportingDocuments' in entity)).toBe(true);
    const first = withDocuments[0];
    const document = first?.type === 'Legal Entity' ? first.supportingDocuments?.[0] : undefined;
    expect(document).toMatchObject({ type: 'Bank Statement', mimeType: 'application/pdf' });
    expect(document).not.toHaveProperty('file');
  });

  it.each([
    ['descending', 'TRUE'],
    ['descending', '1'],
    ['supportingDocuments', 'yes'],
    ['supportingDocuments', ''],
    ['corporateVerification', 'True'],
  ])('rejects %s=%s naming the parameter', async (parameter, value) => {
    await expectBadParameter(`?${parameter}=${value}`, parameter);
  });
});
