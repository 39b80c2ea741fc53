type NativeBase64Decoder = (base64: string) => Uint8Array<ArrayBuffer>;

/** Characters per atob call: a multiple of 4 so padding can only appear in the last chunk. */
const CHUNK_CHARS = 4 * 16_384;

export class InvalidBase64Error extends Error {
  constructor() {
    super('The document could not be decoded: its file is not valid base64.');
    this.name = 'InvalidBase64Error';
  }
}

function nativeDecoder(): NativeBase64Decoder | null {
  const candidate = (Uint8Array as unknown as { fromBase64?: unknown }).fromBase64;
  return typeof candidate === 'function' ? (candidate as NativeBase64Decoder) : null;
}

/** Base64 to bytes: the engine's own decoder where there is one, else atob in chunks. */
export function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const compact = /\s/.test(base64) ? base64.replace(/\s+/g, '') : base64;
  const native = nativeDecoder();
  try {
    return native ? native.call(Uint8Array, compact) : decodeInChunks(compact);
  } catch {
    throw new InvalidBase64Error();
  }
}

function decodeInChunks(base64: string): Uint8Array<ArrayBuffer> {
  if (base64.length % 4 === 1) throw new InvalidBase64Error();
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array(Math.floor((base64.length * 3) / 4) - padding);
  let offset = 0;
  for (let start = 0; start < base64.length; start += CHUNK_CHARS) {
    const binary = atob(base64.slice(start, start + CHUNK_CHARS));
    for (let index = 0; index < binary.length; index += 1) {
      bytes[offset] = binary.charCodeAt(index);
      offset += 1;
    }
  }
  // A truncated final quantum (no padding) yields fewer bytes than the estimate.
  return offset === bytes.length ? bytes : bytes.slice(0, offset);
}
