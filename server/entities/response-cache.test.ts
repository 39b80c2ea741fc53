import { sql } from 'kysely';
import {
  entityListResponseSchema,
  legalEntityResponseSchema,
  naturalPersonResponseSchema,
  searchResponseSchema,
} from '../../contract/entities.ts';
import { entityDataVersion } from '../db/change-counter.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { createResponseCache } from './read-model/response-cache.ts';
import { legalEntityPayload, postLegalEntity, uniqueSuffix } from '../testing/test-payloads.ts';

let server: TestServer;

/**
 * Writes through a second connection to the same database, as a second server instance or the
 * admin CLI does.
 */
async function fromOtherConnection(write: (other: Db) => Promise<unknown>): Promise<void> {
  const { db: other } = await openDatabase(server.dataDir, server.databaseUrl);
  try {
    await write(other);
  } finally {
    await other.destroy();
  }
}

async function createLegalEntity(companyName: string) {
  const response = await postLegalEntity(
    server,
    legalEntityPayload({ corporateInformation: { companyName } }),
  );
  expect(response.status, response.text).toBe(201);
  return legalEntityResponseSchema.parse(response.body).data;
}

async function companyNameOf(id: string) {
  const response = await server.request(`/api/v2/entities/legal-entities/${id}`);
  expect(response.status).toBe(200);
  return legalEntityResponseSchema.parse(response.body).data.corporateInformation.companyName;
}

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('createResponseCache', () => {
  it('builds once until this connection or another one writes', async () => {
    const cache = createResponseCache(server.app.services.db);
    let builds = 0;
    const build = () => {
      builds += 1;
      return Promise.resolve({ build: builds });
    };
    const first = await cache.envelopeJson('key', build);
    expect(JSON.parse(first.toString())).toEqual({
      code: 200,
      status: 'success',
      message: '',
      data: { build: 1 },
    });
    expect((await cache.envelopeJson('key', build)).equals(first)).toBe(true);
    expect(builds).toBe(1);

    const created = await createLegalEntity(`Cache Own Write ${uniqueSuffix()}`);
    expect(JSON.parse((await cache.envelopeJson('key', build)).toString())).toMatchObject({
      data: { build: 2 },
    });
    expect(await cache.envelopeJson('key', build)).toEqual(await cache.envelopeJson('key', build));
    expect(builds).toBe(2);

    await fromOtherConnection((other) =>
      other
        .updateTable('legal_entities')
        .set({ company_name: sql<string>`company_name || ' Renamed'` })
        .where('entity_id', '=', created.id)
        .execute(),
    );
    expect(JSON.parse((await cache.envelopeJson('key', build)).toString())).toMatchObject({
      data: { build: 3 },
    });
    expect(builds).toBe(3);
  });

  it('takes the version read as the request began, unless it is older than the one kept', async () => {
    const { db } = server.app.services;
    const cache = createResponseCache(db);
    let builds = 0;
    const build = (version: string) => {
      builds += 1;
      return Promise.resolve({ build: builds, version });
    };
    const dataOf = async (versionAtStart: string) =>
      JSON.parse((await cache.envelopeJson('key', build, versionAtStart)).toString()) as {
        data: { build: number; version: string };
      };
    const atStart = await entityDataVersion(db);
    expect((await dataOf(atStart)).data).toEqual({ build: 1, version: atStart });

    await createLegalEntity(`Cache Version ${uniqueSuffix()}`);
    // A request identified before the write is answered as of then, from the kept entry.
    expect((await dataOf(atStart)).data).toEqual({ build: 1, version: atStart });
    const afterWrite = await entityDataVersion(db);
    expect(afterWrite).not.toBe(atStart);
    expect((await dataOf(afterWrite)).data).toEqual({ build: 2, version: afterWrite });
    // The older version again is read anew, not taken: the newer entry stays.
    expect((await dataOf(atStart)).data).toEqual({ build: 2, version: afterWrite });
    expect(builds).toBe(2);
  });

  it('does not keep what a failed build threw', async () => {
    const cache = createResponseCache(server.app.services.db);
    await expect(
      cache.envelopeJson('failing', () => Promise.reject(new Error('no'))),
    ).rejects.toThrow('no');
    expect(cache.size).toBe(0);
  });

  it('drops the least recently used entries past its entry and byte limits', async () => {
    const cache = createResponseCache(server.app.services.db, { entries: 2, bytes: 10_000 });
    const builds: string[] = [];
    const build =
      (key: string, size = 10) =>
      () => {
        builds.push(key);
        return Promise.resolve('x'.repeat(size));
      };
    await cache.envelopeJson('a', build('a'));
    await cache.envelopeJson('b', build('b'));
    await cache.envelopeJson('a', build('a'));
    await cache.envelopeJson('c', build('c'));
    expect(cache.size).toBe(2);
    await cache.envelopeJson('a', build('a'));
    await cache.envelopeJson('b', build('b'));
    expect(builds).toEqual(['a', 'b', 'c', 'b']);

    await cache.envelopeJson('big', build('big', 9_930));
    expect(cache.size).toBe(1);
    await cache.envelopeJson('too big', build('too big', 20_000));
    expect(cache.size).toBe(1);
  });
});

describe('cached routes', () => {
  it('answer a write from this process at once: list, search and by id', async () => {
    const before = entityListResponseSchema.parse(
      (await server.request('/api/v2/entities?descending=true&limit=5')).body,
    ).data;
    const name = `Cached Route ${uniqueSuffix()}`;
    const searchPath = `/api/v2/entities/legal-entities?companyName=${encodeURIComponent(name)}`;
    expect(searchResponseSchema.parse((await server.request(searchPath)).body).data).toEqual([]);

    const created = await createLegalEntity(name);
    const after = entityListResponseSchema.parse(
      (await server.request('/api/v2/entities?descending=true&limit=5')).body,
    ).data;
    expect(after.map((entity) => entity.id)).toContain(created.id);
    expect(after).not.toEqual(before);
    expect(searchResponseSchema.parse((await server.request(searchPath)).body).data).toEqual([
      created.id,
    ]);

    expect(await companyNameOf(created.id)).toBe(name);
    await server.app.services.db
      .updateTable('legal_entities')
      .set({ company_name: `${name} Renamed` })
      .where('entity_id', '=', created.id)
      .execute();
    expect(await companyNameOf(created.id)).toBe(`${name} Renamed`);
  });

  it('answer a write from another connection to the same file', async () => {
    const created = await createLegalEntity(`Other Writer ${uniqueSuffix()}`);
    const contactId = created.linkedEntities?.[0]?.entityID ?? '';
    const personPath = `/api/v2/entities/natural-persons/${contactId}`;
    const person = naturalPersonResponseSchema.parse((await server.request(personPath)).body).data;
    const renamedCompany = `Renamed Elsewhere ${uniqueSuffix()}`;
    expect(await companyNameOf(created.id)).toBe(created.corporateInformation.companyName);

    await fromOtherConnection(async (other) => {
      await other
        .updateTable('legal_entities')
        .set({ company_name: renamedCompany })
        .where('entity_id', '=', created.id)
        .execute();
      await other
        .updateTable('natural_persons')
        .set({ first_name: 'Elsewhere' })
        .where('entity_id', '=', contactId)
        .execute();
    });

    expect(await companyNameOf(created.id)).toBe(renamedCompany);
    const renamedPerson = naturalPersonResponseSchema.parse(
      (await server.request(personPath)).body,
    ).data;
    expect(renamedPerson.personalInformation.firstName).toBe('Elsewhere');
    expect(renamedPerson.personalInformation.lastName).toBe(person.personalInformation.lastName);
  });

  it('send the same JSON from the cache as when built, as application/json', async () => {
    const created = await createLegalEntity(`Same Bytes ${uniqueSuffix()}`);
    const first = await server.request(`/api/v2/entities/legal-entities/${created.id}`);
    const second = await server.request(`/api/v2/entities/legal-entities/${created.id}`);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(legalEntityResponseSchema.parse(second.body).data).toEqual(created);
  });
});
