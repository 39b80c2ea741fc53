import zlib from 'node:zlib';

export type Rgb = readonly [number, number, number];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO 3309), as PNG chunks carry it. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** An 8-bit RGB raster that can be filled with rectangles, then encoded as PNG. */
export class Raster {
  readonly pixels: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    this.fill(0, 0, width, height, background);
  }

  fill(x: number, y: number, width: number, height: number, colour: Rgb): void {
    const left = Math.max(0, Math.floor(x));
    const top = Math.max(0, Math.floor(y));
    const right = Math.min(this.width, Math.floor(x + width));
    const bottom = Math.min(this.height, Math.floor(y + height));
    for (let row = top; row < bottom; row++) {
      for (let column = left; column < right; column++) {
        this.pixels.set(colour, (row * this.width + column) * 3);
      }
    }
  }

  /** PNG: signature, IHDR (8-bit truecolour), one zlib IDAT of unfiltered scanlines, IEND. */
  toPng(): Buffer {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, 2, 0, 0, 0], 8);
    const stride = this.width * 3;
    const scanlines = Buffer.alloc(this.height * (stride + 1));
    for (let row = 0; row < this.height; row++) {
      scanlines.set(this.pixels.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);
    }
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', zlib.deflateSync(scanlines, { level: 9 })),
      chunk('IEND', Buffer.alloc(0)),
    ]);
  }
}
