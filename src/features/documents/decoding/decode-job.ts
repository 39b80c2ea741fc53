import { decodeBase64 } from './decode-base64.ts';
import { identifyFileType } from '../../../../contract/file-type.ts';

export interface DecodeRequest {
  id: number;
  base64: string;
}

export type DecodeResponse =
  | { id: number; ok: true; buffer: ArrayBuffer; mimeType: string }
  | { id: number; ok: false; message: string };

/** What the decode worker does with one message; also the inline path for small files. */
export function runDecodeJob(request: DecodeRequest): DecodeResponse {
  try {
    const bytes = decodeBase64(request.base64);
    return {
      id: request.id,
      ok: true,
      buffer: bytes.buffer,
      // The bytes decide: a declared type could dress an executable up as a PDF.
      mimeType: identifyFileType(bytes).mimeType,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : 'The document could not be decoded.';
    return { id: request.id, ok: false, message };
  }
}
