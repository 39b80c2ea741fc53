import { errorEnvelopeSchema } from '../../contract/common.ts';
import { legalEntityResponseSchema, searchResponseSchema } from '../../contract/entities.ts';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import {
  legalEntityPayload,
  postLegalEntity,
  uniqueSuffix,
  validLei,
  type PayloadOverrides,
} from '../testing/test-payloads.ts';

let server: TestServer;
const ids: Record<'percent' | 'underscore' | 'lookalike' | 'thousand' | 'other', string> = {
  percent: '',
  underscore: '',
  lookalike: '',
  thousand: '',
  other: '',
};
const percentLei = validLei();

async function search(query: string) {
  const response = await server.request(`/api/v2/entities/legal-entities?${query}`);
  expect(response.status, response.text).toBe(200);
  return searchResponseSchema.parse(response.body).data;
}

async function expectBadSearch(query: string, mentioned: string) {
  const response = await server.request(`/api/v2/entities/legal-entities${query}`);
  expect(response.status).toBe(400);
  expect(errorEnvelopeSchema.parse(response.body).message).toContain(mentioned);
}

async function create(
  key: keyof typeof ids,
  corporateInformation: PayloadOverrides['corporateInformation'],
  contactEmail: string,
  externalID: string,
) {
  const payload = legalEntityPayload({ corporateInformation, externalID });
  if (payload.primaryContact) payload.primaryContact.email = contactEmail;
  const response = await postLegalEntity(server, payload);
  expect(response.status, response.text).toBe(201);
  ids[key] = legalEntityResponseSchema.parse(response.body).data.id;
}

beforeAll(async () => {
  server = await startTestServer();
  // Created one after another, so this is also the oldest-first order.
  await create(
    'percent',
    {
      companyName: 'Northwind 100% Traders',
      registrationNumber: 'NW-001',
      duns: '004567890',
      glei: percentLei,
      companyPhone: '+1 (212) 555-2000',
      email: 'info@northwind.example',
    },
    'Jane.Doe@Northwind.example',
    'EXT-NW-1',
  );
  await create(
    'underscore',
    {
      companyName: 'Northwind_Holdings',
      registrationNumber: 'NW-002',
      duns: '123456789',
      // National form: valid for the company's country (a US number).
      country: 'US',
      companyPhone: '1.212.555.2000',
    },
    'holdings@northwind.example',
    'EXT-NW-2',
  );
  await create(
    'lookalike',
    { companyName: 'NorthwindXHoldings', registrationNumber: 'NW-003', companyPhone: null },
    'x@northwind.example',
    'EXT-NW-3',
  );
  await create(
    'thousand',
    { companyName: 'Northwind 1000 Traders', registrationNumber: 'NW-004' },
    'thousand@northwind.example',
    'EXT-NW-4',
  );
  await create(
    'other',
    { companyName: 'Contoso GmbH', registrationNumber: 'HRB-77', country: 'DE' },
    'anna@contoso.example',
    'EXT-CO-1',
  );
});

afterAll(async () => {
  await server.close();
});

describe('GET /api/v2/entities/legal-entities (search)', () => {
  it('finds company names by case-insensitive substring, oldest first', async () => {
    expect(await search('companyName=NORTHWIND')).toEqual([
      ids.percent,
      ids.underscore,
      ids.lookalike,
      ids.thousand,
    ]);
    expect(await search('companyName=contoso')).toEqual([ids.other]);
    expect(await search('companyName=nobody')).toEqual([]);
  });

  it('takes % and _ in companyName literally', async () => {
    expect(await search(`companyName=${encodeURIComponent('100%')}`)).toEqual([ids.percent]);
    expect(await search('companyName=wind_h')).toEqual([ids.underscore]);
    expect(await search(`companyName=${encodeURIComponent('%')}`)).toEqual([ids.percent]);
    expect(await search('companyName=_')).toEqual([ids.underscore]);
    expect(await search(`companyName=${encodeURIComponent('wind\\')}`)).toEqual([]);
    // Full-width ％ and ＿ are % and _ after NFKC, and escaped as they are.
    expect(await search(`companyName=${encodeURIComponent('％')}`)).toEqual([ids.percent]);
    expect(await search(`companyName=${encodeURIComponent('＿')}`)).toEqual([ids.underscore]);
  });

  it('matches registrationNumber exactly, ignoring case', async () => {
    expect(await search('registrationNumber=nw-001')).toEqual([ids.percent]);
    expect(await search('registrationNumber=NW-00')).toEqual([]);
    expect(await search('registrationNumber=hrb-77')).toEqual([ids.other]);
  });

  it('matches glei exactly, ignoring case', async () => {
    expect(await search(`glei=${percentLei.toLowerCase()}`)).toEqual([ids.percent]);
    expect(await search(`glei=${percentLei.slice(0, 10)}`)).toEqual([]);
  });

  it('matches externalID exactly, ignoring case', async () => {
    expect(await search('externalID=ext-nw-1')).toEqual([ids.percent]);
    expect(await search('externalID=EXT-NW')).toEqual([]);
  });

  it('matches duns ignoring leading zeros', async () => {
    expect(await search('duns=4567890')).toEqual([ids.percent]);
    expect(await search('duns=004567890')).toEqual([ids.percent]);
    expect(await search('duns=123456789')).toEqual([ids.underscore]);
    expect(await search('duns=456789')).toEqual([]);
  });

  it.each(['abc', '1234567890', '12.5', '-4567890'])('rejects duns=%s', async (value) => {
    await expectBadSearch(`?duns=${encodeURIComponent(value)}`, 'duns');
  });

  it('compares the digits of phone numbers, international or national', async () => {
    expect(await search(`phone=${encodeURIComponent('+1 212-555-2000')}`)).toEqual([
      ids.percent,
      ids.underscore,
    ]);
    expect(await search('phone=12125552000')).toEqual([ids.percent, ids.underscore]);
    // The national number finds a number stored with its country code, and one dialled with
    // the US trunk prefix (`1.212.555.2000`).
    expect(await search('phone=2125552000')).toEqual([ids.percent, ids.underscore]);
    expect(await search('phone=212555200')).toEqual([]);
  });

  it("matches the primary contact's e-mail, ignoring case, not the company's", async () => {
    expect(await search('email=jane.doe%40northwind.example')).toEqual([ids.percent]);
    expect(await search('email=JANE.DOE%40NORTHWIND.EXAMPLE')).toEqual([ids.percent]);
    expect(await search('email=info%40northwind.example')).toEqual([]);
    expect(await search('email=jane.doe')).toEqual([]);
  });

  it('requires every given parameter to match (AND)', async () => {
    const phone = encodeURIComponent('(212) 555 2000');
    expect(await search(`companyName=northwind&phone=1${phone}`)).toEqual([
      ids.percent,
      ids.underscore,
    ]);
    expect(await search(`companyName=holdings&phone=1${phone}`)).toEqual([ids.underscore]);
    expect(await search('companyName=northwind&duns=4567890')).toEqual([ids.percent]);
    expect(await search('companyName=traders&registrationNumber=NW-002')).toEqual([]);
    expect(
      await search(
        'companyName=northwind&registrationNumber=nw-001&duns=4567890&externalID=ext-nw-1&email=jane.doe%40northwind.example&phone=12125552000',
      ),
    ).toEqual([ids.percent]);
    expect(await search('email=jane.doe%40northwind.example&externalID=EXT-NW-2')).toEqual([]);
  });

  it('folds externalID, glei and email on both sides: NFKC, then full case folding', async () => {
    const suffix = uniqueSuffix();
    const lei = validLei();
    const payload = legalEntityPayload({
      externalID: `Straße-ÉCOLE-${suffix}`,
      corporateInformation: { glei: lei },
    });
    if (payload.primaryContact) payload.primaryContact.email = `Zoe.${suffix}@Example.COM`;
    const response = await postLegalEntity(server, payload);
    expect(response.status, response.text).toBe(201);
    const id = legalEntityResponseSchema.parse(response.body).data.id;
    const query = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;

    expect(await search(query('externalID', `STRASSE-école-${suffix}`))).toEqual([id]);
    expect(
      await search(query('externalID', `strasse-E\u0301cole-${suffix.toLowerCase()}`)),
    ).toEqual([id]);
    expect(await search(query('externalID', `Strase-ECOLE-${suffix}`))).toEqual([]);
    // Full-width letters and digits are the ASCII ones after NFKC.
    const fullWidth = (text: string) =>
      text.replace(/[0-9A-Za-z]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
    expect(await search(query('glei', fullWidth(lei.toLowerCase())))).toEqual([id]);
    expect(await search(query('email', `ZOE.${suffix}@EXAMPLE.COM`))).toEqual([id]);
    expect(await search(query('email', fullWidth(`zoe.${suffix}@example.com`)))).toEqual([id]);
  });

  it('rejects a search without parameters', async () => {
    await expectBadSearch('', 'at least one search parameter');
  });

  it('rejects an unknown parameter, naming it', async () => {
    await expectBadSearch('?companyName=northwind&country=GB', 'country');
    await expectBadSearch('?limit=5', 'limit');
  });

  it('rejects an empty parameter, naming it', async () => {
    await expectBadSearch('?companyName=', 'companyName');
    await expectBadSearch('?phone=abc', 'phone');
    await expectBadSearch(`?registrationNumber=${encodeURIComponent('-./')}`, 'registrationNumber');
  });
});
