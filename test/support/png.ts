/**
 * Just enough of PNG (https://www.w3.org/TR/png-3/) to look at a screenshot: 8-bit RGB or RGBA,
 * non-interlaced, as Chromium writes them. Answers how many distinct colours the picture has.
 */
import { inflateSync } from 'node:zlib';

export function decodePng(file: Buffer): { width: number; height: number; channels: number; pixels: Buffer } {
  if (file.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    const chunk = file.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = chunk.readUInt32BE(0);
      height = chunk.readUInt32BE(4);
      const [depth, colourType, , , interlace] = [chunk[8], chunk[9], chunk[10], chunk[11], chunk[12]];
      if (depth !== 8 || interlace !== 0 || (colourType !== 2 && colourType !== 6)) throw new Error('unsupported PNG layout');
      channels = colourType === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(chunk);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const byte = raw[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= channels ? (pixels[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + x] ?? 0) : 0;
      const upLeft = y > 0 && x >= channels ? (pixels[(y - 1) * stride + x - channels] ?? 0) : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = (byte + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** Distinct RGB colours, counting at most `cap` (a blank page has one). */
export function distinctColours(png: ReturnType<typeof decodePng>, cap = 1000): number {
  const seen = new Set<number>();
  for (let i = 0; i < png.pixels.length && seen.size < cap; i += png.channels) {
    seen.add(((png.pixels[i] ?? 0) << 16) | ((png.pixels[i + 1] ?? 0) << 8) | (png.pixels[i + 2] ?? 0));
  }
  return seen.size;
}
