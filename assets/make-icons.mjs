// Draws the add-in's icons (a blue tile with an ascending bar chart) as PNG files at the sizes
// the manifest and stores use. Run once with `node assets/make-icons.mjs`; the PNGs are committed.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const SIZES = [16, 32, 64, 80, 128];
const TILE = [15, 108, 189]; // Fluent brand blue
const BAR = [255, 255, 255];
const SUPERSAMPLE = 4;

/** Coverage of the design at (x, y) in a unit square: "tile", "bar" or undefined (transparent). */
function shapeAt(x, y) {
  const radius = 0.18;
  const cx = Math.min(Math.max(x, radius), 1 - radius);
  const cy = Math.min(Math.max(y, radius), 1 - radius);
  if ((x - cx) ** 2 + (y - cy) ** 2 > radius ** 2) return undefined;
  const bars = [
    { left: 0.2, right: 0.36, top: 0.56 },
    { left: 0.42, right: 0.58, top: 0.38 },
    { left: 0.64, right: 0.8, top: 0.2 },
  ];
  const bottom = 0.8;
  for (const bar of bars) {
    if (x >= bar.left && x < bar.right && y >= bar.top && y < bottom) return "bar";
  }
  return "tile";
}

function renderRgba(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const samples = SUPERSAMPLE * SUPERSAMPLE;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const shape = shapeAt((px + (sx + 0.5) / SUPERSAMPLE) / size, (py + (sy + 0.5) / SUPERSAMPLE) / size);
          if (!shape) continue;
          const color = shape === "bar" ? BAR : TILE;
          r += color[0]; g += color[1]; b += color[2]; a += 1;
        }
      }
      const at = (py * size + px) * 4;
      pixels[at] = a ? Math.round(r / a) : 0;
      pixels[at + 1] = a ? Math.round(g / a) : 0;
      pixels[at + 2] = a ? Math.round(b / a) : 0;
      pixels[at + 3] = Math.round((255 * a) / samples);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  // Each scanline starts with filter type 0 (none).
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

for (const size of SIZES) {
  const file = new URL(`icon-${size}.png`, import.meta.url);
  writeFileSync(file, encodePng(size, renderRgba(size)));
  console.log(`wrote ${file.pathname}`);
}
