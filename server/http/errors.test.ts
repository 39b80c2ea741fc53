import { legalEntitySearchQuerySchema } from '../../contract/entities.ts';
import { ApiError, parseOrThrow } from './errors.ts';

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

test('an unknown search parameter is reported on itself, alone', () => {
  const error = errorOf(() =>
    parseOrThrow(legalEntitySearchQuerySchema, { colour: 'red' }, 'parameter'),
  );
  expect(error.statusCode).toBe(400);
  expect(error.fieldErrors).toEqual([
    { field: 'colour', message: 'Unknown search parameter: colour.' },
  ]);
  expect(error.message).toBe('Invalid parameter colour: Unknown search parameter: colour.');
});

test('no search parameter at all is an error about the query as a whole', () => {
  const error = errorOf(() => parseOrThrow(legalEntitySearchQuerySchema, {}, 'parameter'));
  expect(error.fieldErrors).toEqual([
    {
      field: 'query',
      message: expect.stringMatching(/^Give at least one search parameter/) as string,
    },
  ]);
  expect(error.message).toMatch(/^Invalid request: Give at least one search parameter/);
});

test('a bad parameter is reported on its name', () => {
  const error = errorOf(() =>
    parseOrThrow(legalEntitySearchQuerySchema, { duns: 'x1' }, 'parameter'),
  );
  expect(error.fieldErrors[0]?.field).toBe('duns');
});
