import fc from 'fast-check';
import { decodeBase64, InvalidBase64Error } from './decode-base64.ts';

const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

test('decodes any bytes that Node encoded, across chunk boundaries', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200_000 }), (bytes) => {
      expect(Array.from(decodeBase64(toBase64(bytes)))).toEqual(Array.from(bytes));
    }),
    { numRuns: 40 },
  );
});

test('returns a buffer of exactly the decoded length, so it can be transferred whole', () => {
  const decoded = decodeBase64('SGVsbG8=');
  expect(new TextDecoder().decode(decoded)).toBe('Hello');
  expect(decoded.buffer.byteLength).toBe(5);
});

test('ignores line breaks that some encoders insert', () => {
  expect(new TextDecoder().decode(decodeBase64('SGVs\nbG8g\r\nd29y bGQ='))).toBe('Hello world');
});

test('accepts base64 without its trailing padding', () => {
  expect(new TextDecoder().decode(decodeBase64('SGVsbG8'))).toBe('Hello');
});

test('rejects text that is not base64', () => {
  expect(() => decodeBase64('not*base64!')).toThrow(InvalidBase64Error);
  expect(() => decodeBase64('abcde')).toThrow(InvalidBase64Error);
});

test('uses Uint8Array.fromBase64 when the engine has it', () => {
  const fromBase64 = vi.fn((value: string) => new Uint8Array(Buffer.from(value, 'base64')));
  Object.defineProperty(Uint8Array, 'fromBase64', { value: fromBase64, configurable: true });
  try {
    expect(Array.from(decodeBase64('AQID'))).toEqual([1, 2, 3]);
    expect(fromBase64).toHaveBeenCalledWith('AQID');
  } finally {
    Reflect.deleteProperty(Uint8Array, 'fromBase64');
  }
});
