/**
 * The demo content's images, drawn by the project: SVG textures of stone, wood, tile, paint, metal…,
 * stylised showroom scenes and the showrooms' architecture (./architecture.ts). Nothing is
 * downloaded. An image is fully described by its path, `/media/<kind>/<colours>/<seed>.svg`, so the
 * media route is a pure function of the URL and the output can be cached for as long as the
 * generator stays the same.
 */
import { facade, gallery } from "./architecture";
import { grainFilter, H, prng, r1, shade, svg, W } from "./draw";

export { shade };

export const TEXTURE_KINDS = [
  "marble",
  "stone",
  "terrazzo",
  "wood",
  "tile",
  "subway",
  "paint",
  "metal",
  "basin",
  "faucet",
  "handle",
  "showroom",
  "facade",
  "gallery",
] as const;
export type TextureKind = (typeof TEXTURE_KINDS)[number];

export { MEDIA_HEIGHT, MEDIA_WIDTH } from "./draw";

export type TextureSpec = { kind: TextureKind; colours: string[]; seed: number };

const HEX = /^[0-9a-f]{6}$/;

/** The path of an image; colours are hex without '#'. */
export function mediaPath(kind: TextureKind, colours: readonly string[], seed: number): string {
  return `/media/${kind}/${colours.map((c) => c.replace(/^#/, "").toLowerCase()).join("-")}/${seed}.svg`;
}

/** Parses the route's parameters; null for anything that is not a valid image path. */
export function parseMediaPath(kind: string, colours: string, file: string): TextureSpec | null {
  if (!(TEXTURE_KINDS as readonly string[]).includes(kind)) return null;
  const list = colours.split("-");
  if (list.length < 1 || list.length > 4 || !list.every((c) => HEX.test(c))) return null;
  const m = /^(\d{1,3})\.svg$/.exec(file);
  if (!m) return null;
  return { kind: kind as TextureKind, colours: list.map((c) => `#${c}`), seed: Number(m[1]) };
}

function marble([base = "#eeeae4", vein = "#8f877c", accent]: string[], seed: number): string {
  // Veins are contour lines of a smooth noise field: a thin spike in the alpha transfer table.
  const spike = (at: number, width = 1) =>
    Array.from({ length: 32 }, (_, i) =>
      Math.abs(i - at) < width ? 0.9 : Math.abs(i - at) < width + 1 ? 0.25 : 0,
    ).join(" ");
  const veins = (id: string, freq: string, s: number, table: string, blur: number) =>
    `<filter id="${id}" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="${freq}" numOctaves="3" seed="${s}"/><feColorMatrix type="matrix" values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  1 0 0 0 0"/><feComponentTransfer><feFuncA type="table" tableValues="${table}"/></feComponentTransfer><feGaussianBlur stdDeviation="${blur}"/><feComposite in="SourceGraphic" operator="in"/></filter>`;
  const cloud = `<filter id="c" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.004 0.008" numOctaves="2" seed="${seed + 7}"/><feColorMatrix type="matrix" values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  -1.4 0 0 0 0.85"/></filter>`;
  return svg(
    `<rect width="${W}" height="${H}" fill="${base}"/><rect width="${W}" height="${H}" fill="${shade(base, base < "#808080" ? 0.12 : -0.1)}" filter="url(#c)" opacity="0.3"/><rect width="${W}" height="${H}" fill="${vein}" filter="url(#a)" opacity="0.4"/><rect width="${W}" height="${H}" fill="${accent ?? vein}" filter="url(#b)" opacity="0.85"/>`,
    veins("a", "0.004 0.01", seed + 3, spike(12, 1), 1.2) + veins("b", "0.0025 0.006", seed, spike(16, 1), 0.7) + cloud,
  );
}

function stone([base = "#9a948b", speck = "#5d5850"]: string[], seed: number): string {
  const rand = prng(seed);
  let pores = "";
  for (let i = 0; i < 260; i += 1) {
    pores += `<circle cx="${r1(rand() * W)}" cy="${r1(rand() * H)}" r="${r1(0.8 + rand() * 2.2)}" fill="${speck}" opacity="${r1(0.25 + rand() * 0.5)}"/>`;
  }
  return svg(
    `<rect width="${W}" height="${H}" fill="${base}"/><rect width="${W}" height="${H}" filter="url(#g)"/><rect width="${W}" height="${H}" filter="url(#h)"/>${pores}`,
    grainFilter("g", seed, "0.9", 0.35, 2) + grainFilter("h", seed + 3, "0.008", 0.25, 2),
  );
}

function terrazzo([base = "#e8e2d8", a = "#a27150", b = "#5e574e", c = "#c9bfae"]: string[], seed: number): string {
  const rand = prng(seed);
  const colours = [a, b, c];
  let chips = "";
  for (let i = 0; i < 220; i += 1) {
    const cx = rand() * W;
    const cy = rand() * H;
    const size = 3 + rand() ** 2 * 16;
    const points = Array.from({ length: 5 }, (_, k) => {
      const angle = (k / 5) * Math.PI * 2 + rand() * 0.9;
      const radius = size * (0.6 + rand() * 0.5);
      return `${r1(cx + Math.cos(angle) * radius)},${r1(cy + Math.sin(angle) * radius)}`;
    }).join(" ");
    chips += `<polygon points="${points}" fill="${colours[i % 3]}" opacity="${r1(0.75 + rand() * 0.25)}"/>`;
  }
  return svg(
    `<rect width="${W}" height="${H}" fill="${base}"/><rect width="${W}" height="${H}" filter="url(#g)"/>${chips}`,
    grainFilter("g", seed, "0.7", 0.2, 2),
  );
}

function wood([base = "#a27150", dark = "#7a5236"]: string[], seed: number): string {
  const rand = prng(seed);
  const plank = 96 + Math.round(rand() * 40);
  let planks = "";
  for (let x = 0; x < W; x += plank) {
    const tone = shade(base, (rand() - 0.5) * 0.18);
    const joint = rand() * H;
    planks += `<rect x="${x}" y="0" width="${plank}" height="${H}" fill="${tone}"/><line x1="${x}" y1="0" x2="${x}" y2="${H}" stroke="${dark}" stroke-opacity="0.55" stroke-width="1.5"/><line x1="${x}" y1="${r1(joint)}" x2="${x + plank}" y2="${r1(joint)}" stroke="${dark}" stroke-opacity="0.45" stroke-width="1.5"/>`;
  }
  const grain = `<filter id="w" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.004 0.09" numOctaves="3" seed="${seed}"/><feColorMatrix type="matrix" values="0 0 0 0 0.2  0 0 0 0 0.12  0 0 0 0 0.05  0 0 0 -1.1 0.6"/></filter>`;
  return svg(
    `${planks}<rect width="${W}" height="${H}" filter="url(#w)" transform="rotate(90 ${W / 2} ${H / 2}) scale(1.4)"/>`,
    grain,
  );
}

function tileGrid(
  [base = "#d8d2c8", grout = "#f4f1ec", accent]: string[],
  seed: number,
  { cols, rows, offset }: { cols: number; rows: number; offset: boolean },
): string {
  const rand = prng(seed);
  const tw = W / cols;
  const th = H / rows;
  let tiles = "";
  for (let r = 0; r < rows; r += 1) {
    const shift = offset && r % 2 ? -tw / 2 : 0;
    for (let c = 0; c <= cols; c += 1) {
      const pick = accent && rand() < 0.18 ? accent : base;
      const tone = shade(pick, (rand() - 0.5) * 0.1);
      tiles += `<rect x="${r1(c * tw + shift + 2)}" y="${r1(r * th + 2)}" width="${r1(tw - 4)}" height="${r1(th - 4)}" rx="2" fill="${tone}"/>`;
    }
  }
  const sheen = `<linearGradient id="s" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="0.28"/><stop offset="0.5" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.08"/></linearGradient>`;
  return svg(
    `<rect width="${W}" height="${H}" fill="${grout}"/>${tiles}<rect width="${W}" height="${H}" filter="url(#g)"/><rect width="${W}" height="${H}" fill="url(#s)"/>`,
    grainFilter("g", seed, "0.6", 0.18, 2) + sheen,
  );
}

function paint([base = "#d9cbb8", shadow]: string[], seed: number): string {
  const light = shade(base, 0.18);
  const dark = shadow ?? shade(base, -0.16);
  const defs = `<linearGradient id="l" x1="0" y1="0" x2="1" y2="0.6"><stop offset="0" stop-color="${light}"/><stop offset="0.55" stop-color="${base}"/><stop offset="1" stop-color="${dark}"/></linearGradient>${grainFilter("g", seed, "0.02 0.4", 0.18, 2)}`;
  return svg(
    `<rect width="${W}" height="${H}" fill="url(#l)"/><rect width="${W}" height="${H}" filter="url(#g)"/><rect x="${W * 0.58}" y="${H * 0.18}" width="${W * 0.26}" height="${H * 0.62}" rx="6" fill="#fff" opacity="0.92"/><rect x="${W * 0.6}" y="${H * 0.21}" width="${W * 0.22}" height="${H * 0.4}" rx="3" fill="${base}"/><rect x="${W * 0.6}" y="${H * 0.64}" width="${W * 0.14}" height="10" rx="5" fill="${dark}" opacity="0.7"/><rect x="${W * 0.6}" y="${H * 0.69}" width="${W * 0.09}" height="8" rx="4" fill="${dark}" opacity="0.4"/>`,
    defs,
  );
}

function metal([base = "#b9b4ac", dark = "#6f6a63"]: string[], seed: number): string {
  const defs = `<linearGradient id="m" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${shade(base, 0.35)}"/><stop offset="0.45" stop-color="${base}"/><stop offset="0.7" stop-color="${shade(base, 0.2)}"/><stop offset="1" stop-color="${dark}"/></linearGradient><filter id="b" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.002 0.8" numOctaves="2" seed="${seed}"/><feColorMatrix type="matrix" values="0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  0 0 0 -0.5 0.32"/></filter>`;
  return svg(
    `<rect width="${W}" height="${H}" fill="url(#m)"/><rect width="${W}" height="${H}" filter="url(#b)"/>`,
    defs,
  );
}

/** A soft studio backdrop with a counter: the setting of the product pictures. */
function studio(wall: string, counter: string, body: string, defs = ""): string {
  return svg(
    `<rect width="${W}" height="${H}" fill="url(#bg)"/><rect y="${H * 0.68}" width="${W}" height="${H * 0.32}" fill="${counter}"/><rect y="${H * 0.68}" width="${W}" height="6" fill="#000" opacity="0.06"/><ellipse cx="${W / 2}" cy="${H * 0.7}" rx="${W * 0.3}" ry="14" fill="#000" opacity="0.12" filter="url(#blur)"/>${body}`,
    `<radialGradient id="bg" cx="0.35" cy="0.3" r="0.9"><stop offset="0" stop-color="${shade(wall, 0.35)}"/><stop offset="1" stop-color="${wall}"/></radialGradient><filter id="blur"><feGaussianBlur stdDeviation="8"/></filter>${defs}`,
  );
}

function basin([body = "#f7f5f1", wall = "#d8cfc2", counter = "#8d7a66"]: string[], seed: number): string {
  const wide = seed % 2 === 0;
  const rx = wide ? 210 : 150;
  return studio(
    wall,
    counter,
    `<path d="M${W / 2 - rx} ${H * 0.5} Q${W / 2 - rx} ${H * 0.69} ${W / 2} ${H * 0.69} Q${W / 2 + rx} ${H * 0.69} ${W / 2 + rx} ${H * 0.5} Z" fill="url(#p)"/><ellipse cx="${W / 2}" cy="${H * 0.5}" rx="${rx}" ry="34" fill="${shade(body, -0.04)}"/><ellipse cx="${W / 2}" cy="${H * 0.5 + 4}" rx="${rx - 16}" ry="24" fill="${shade(body, -0.14)}"/>`,
    `<linearGradient id="p" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${shade(body, -0.12)}"/><stop offset="0.35" stop-color="${body}"/><stop offset="1" stop-color="${shade(body, -0.2)}"/></linearGradient>`,
  );
}

function faucet([finish = "#b9b4ac", wall = "#e4ddd2", counter = "#3b3732"]: string[], seed: number): string {
  const reach = 150 + (seed % 3) * 30;
  const x = W / 2 - 40;
  return studio(
    wall,
    counter,
    `<rect x="${x}" y="${H * 0.28}" width="34" height="${H * 0.4}" rx="12" fill="url(#f)"/><path d="M${x + 17} ${H * 0.3} q0 -60 60 -60 h${reach - 60} q24 0 24 24 v22" fill="none" stroke="url(#f)" stroke-width="26" stroke-linecap="round"/><rect x="${x - 60}" y="${H * 0.52}" width="70" height="14" rx="7" fill="url(#f)"/>`,
    `<linearGradient id="f" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${shade(finish, -0.3)}"/><stop offset="0.4" stop-color="${shade(finish, 0.45)}"/><stop offset="1" stop-color="${shade(finish, -0.2)}"/></linearGradient>`,
  );
}

function handle([finish = "#3b3732", door = "#cdbfae", frame = "#8d7a66"]: string[], seed: number): string {
  const long = seed % 2 === 0;
  return svg(
    `<rect width="${W}" height="${H}" fill="url(#d)"/><rect x="${W * 0.1}" width="6" height="${H}" fill="${frame}"/><rect x="${W * 0.55}" y="${H * (long ? 0.18 : 0.38)}" width="26" height="${H * (long ? 0.64 : 0.24)}" rx="13" fill="url(#h)"/><rect x="${W * 0.55 + 8}" y="${H * (long ? 0.18 : 0.38) - 10}" width="10" height="20" fill="${shade(finish, -0.2)}"/><rect x="${W * 0.55 + 8}" y="${H * (long ? 0.82 : 0.62) - 10}" width="10" height="20" fill="${shade(finish, -0.2)}"/>`,
    `<linearGradient id="d" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${shade(door, 0.2)}"/><stop offset="1" stop-color="${shade(door, -0.08)}"/></linearGradient><linearGradient id="h" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${shade(finish, -0.25)}"/><stop offset="0.45" stop-color="${shade(finish, 0.4)}"/><stop offset="1" stop-color="${shade(finish, -0.15)}"/></linearGradient>`,
  );
}

/** A calm, stylised showroom: wall, arched window light, a wall of samples, floor, a bench. */
function showroom(
  [wall = "#ece5da", floor = "#a27150", accent = "#7d5236", sample = "#d8d2c8"]: string[],
  seed: number,
): string {
  const rand = prng(seed);
  const variant = seed % 3;
  const horizon = H * 0.66;
  const windowX = variant === 1 ? W * 0.08 : W * 0.62;
  let samples = "";
  const sx = variant === 1 ? W * 0.5 : W * 0.1;
  for (let r = 0; r < 3; r += 1) {
    for (let c = 0; c < 5; c += 1) {
      const tone = shade(c % 2 ? sample : accent, (rand() - 0.5) * 0.4);
      samples += `<rect x="${r1(sx + c * 46)}" y="${r1(H * 0.2 + r * 58)}" width="38" height="50" rx="3" fill="${tone}"/>`;
    }
  }
  const planks = Array.from({ length: 14 }, (_, i) => {
    const x = (i - 2) * 90;
    return `<line x1="${W / 2 + (x - W / 2) * 0.35}" y1="${horizon}" x2="${x}" y2="${H}" stroke="${shade(floor, -0.3)}" stroke-opacity="0.35" stroke-width="1.5"/>`;
  }).join("");
  const bench =
    variant === 2
      ? `<rect x="${W * 0.3}" y="${H * 0.6}" width="${W * 0.4}" height="${H * 0.12}" rx="10" fill="${shade(accent, 0.1)}"/><rect x="${W * 0.3}" y="${H * 0.69}" width="${W * 0.4}" height="10" fill="#000" opacity="0.12"/>`
      : `<rect x="${W * 0.36}" y="${H * 0.62}" width="${W * 0.28}" height="${H * 0.05}" rx="4" fill="${shade(accent, -0.15)}"/><rect x="${W * 0.38}" y="${H * 0.67}" width="10" height="${H * 0.08}" fill="${shade(accent, -0.3)}"/><rect x="${W * 0.62 - 10}" y="${H * 0.67}" width="10" height="${H * 0.08}" fill="${shade(accent, -0.3)}"/>`;
  return svg(
    `<rect width="${W}" height="${horizon}" fill="url(#wall)"/><path d="M${windowX} ${H * 0.62} V${H * 0.26} a${W * 0.14} ${W * 0.14} 0 0 1 ${W * 0.28} 0 V${H * 0.62} Z" fill="url(#win)"/><path d="M${windowX + W * 0.14} ${H * 0.12} V${H * 0.62}" stroke="${shade(wall, -0.12)}" stroke-width="4"/>${samples}<rect y="${horizon}" width="${W}" height="${H - horizon}" fill="url(#floor)"/>${planks}<path d="M${windowX} ${horizon} L${windowX + W * 0.28} ${horizon} L${windowX + W * 0.42} ${H} L${windowX - W * 0.12} ${H} Z" fill="#fff" opacity="0.16"/>${bench}`,
    `<linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${shade(wall, -0.05)}"/><stop offset="1" stop-color="${shade(wall, 0.15)}"/></linearGradient><linearGradient id="win" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fdfbf7"/><stop offset="1" stop-color="${shade(wall, 0.4)}"/></linearGradient><linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${shade(floor, -0.12)}"/><stop offset="1" stop-color="${shade(floor, 0.08)}"/></linearGradient>`,
  );
}

/** The SVG document for an image spec. */
export function renderTexture({ kind, colours, seed }: TextureSpec): string {
  switch (kind) {
    case "marble":
      return marble(colours, seed);
    case "stone":
      return stone(colours, seed);
    case "terrazzo":
      return terrazzo(colours, seed);
    case "wood":
      return wood(colours, seed);
    case "tile":
      return tileGrid(colours, seed, { cols: 4, rows: 3, offset: false });
    case "subway":
      return tileGrid(colours, seed, { cols: 6, rows: 12, offset: true });
    case "paint":
      return paint(colours, seed);
    case "metal":
      return metal(colours, seed);
    case "basin":
      return basin(colours, seed);
    case "faucet":
      return faucet(colours, seed);
    case "handle":
      return handle(colours, seed);
    case "showroom":
      return showroom(colours, seed);
    case "facade":
      return facade(colours, seed);
    case "gallery":
      return gallery(colours, seed);
  }
}
