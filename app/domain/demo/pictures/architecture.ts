import { grainFilter, H, mix, prng, r1, shade, svg, W } from "./draw";

/**
 * The showrooms' architecture, drawn as calm elevations: each store gets its own building (a style
 * chosen per store in app/domain/demo/stores.ts), coloured from the store's palette, with a lit
 * shop front and the material samples visible inside. `gallery` is the home page's hero: a
 * plastered arch opening on a sunlit room of materials, composed to survive a portrait crop.
 */
export const FACADE_STYLES = ["curtain", "louvres", "arcade", "warehouse", "terraces", "portal", "gables"] as const;
export type FacadeStyle = (typeof FACADE_STYLES)[number];

/** The seed of a facade picture: its style plus a variant (mirrored, proportions). */
export function facadeSeed(style: FacadeStyle, variant = 0): number {
  return FACADE_STYLES.indexOf(style) + FACADE_STYLES.length * variant;
}

const GROUND = 512;
/** Glass reflects a little of a cool sky, whatever the palette. */
const SKY_BLUE = "#8fa3ad";

type Palette = { wall: string; floor: string; accent: string; sample: string };
type Draw = { p: Palette; rand: () => number; mirror: boolean };

/** Mirrors an x coordinate when the variant asks for it. */
const mx = (d: Draw, x: number, width = 0) => (d.mirror ? W - x - width : x);

/** Shared gradients: sky, glass (reflecting the sky), a warmly lit interior, sun across the façade. */
function commonDefs({ wall, floor, accent }: Palette, seed: number): string {
  return (
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${mix(shade(wall, 0.25), SKY_BLUE, 0.12)}"/><stop offset="0.75" stop-color="${shade(wall, 0.35)}"/><stop offset="1" stop-color="${mix(wall, "#f3dcc0", 0.4)}"/></linearGradient>` +
    `<linearGradient id="gl" gradientUnits="userSpaceOnUse" x1="0" y1="40" x2="${W * 0.35}" y2="${GROUND}"><stop offset="0" stop-color="${mix(shade(wall, 0.3), SKY_BLUE, 0.35)}"/><stop offset="0.5" stop-color="${mix(accent, SKY_BLUE, 0.55)}"/><stop offset="1" stop-color="${shade(mix(accent, SKY_BLUE, 0.3), -0.45)}"/></linearGradient>` +
    `<linearGradient id="lit" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fbf1df"/><stop offset="0.7" stop-color="${shade(floor, 0.55)}"/><stop offset="1" stop-color="${shade(floor, 0.1)}"/></linearGradient>` +
    `<linearGradient id="sun" x1="0" y1="0" x2="1" y2="0.8"><stop offset="0" stop-color="#fff" stop-opacity="0.22"/><stop offset="0.5" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.14"/></linearGradient>` +
    `<radialGradient id="glow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#fff" stop-opacity="0.55"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>` +
    `<filter id="soft"><feGaussianBlur stdDeviation="6"/></filter>` +
    grainFilter("g", seed, "0.75", 0.16, 2)
  );
}

/** A lit shop window: warm interior, material samples on the back wall, thin mullions. */
function shopWindow(d: Draw, x: number, y: number, w: number, h: number, panes = 3): string {
  const { p, rand } = d;
  let samples = "";
  const count = Math.max(2, Math.floor(w / 46));
  const colours = [p.floor, p.accent, p.sample, p.wall];
  for (let i = 0; i < count; i += 1) {
    const sx = x + 14 + i * ((w - 28) / count);
    const sh = h * (0.34 + rand() * 0.14);
    samples += `<rect x="${r1(sx)}" y="${r1(y + h * 0.22)}" width="${r1((w - 28) / count - 8)}" height="${r1(sh)}" fill="${shade(colours[i % 4] as string, (rand() - 0.5) * 0.3)}" opacity="0.85"/>`;
  }
  let mullions = "";
  for (let i = 1; i < panes; i += 1) {
    const lx = x + (w / panes) * i;
    mullions += `<rect x="${r1(lx - 1.5)}" y="${y}" width="3" height="${h}" fill="${shade(p.accent, -0.45)}"/>`;
  }
  return (
    `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="url(#lit)"/>${samples}` +
    `<rect x="${r1(x)}" y="${r1(y + h * 0.82)}" width="${r1(w)}" height="${r1(h * 0.18)}" fill="${shade(p.floor, -0.1)}" opacity="0.6"/>` +
    `<path d="M${r1(x)} ${r1(y)} h${r1(w * 0.45)} L${r1(x)} ${r1(y + h * 0.7)} Z" fill="#fff" opacity="0.12"/>${mullions}` +
    `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(w)}" height="${r1(h)}" fill="none" stroke="${shade(p.accent, -0.45)}" stroke-width="4"/>`
  );
}

/** A slender street tree (or a clipped shrub when small). */
function tree(d: Draw, x: number, scale: number): string {
  const { rand, p } = d;
  const green = shade("#7f8a6a", (rand() - 0.5) * 0.2);
  const trunk = `<rect x="${r1(x - 2.5 * scale)}" y="${r1(GROUND - 130 * scale)}" width="${r1(5 * scale)}" height="${r1(130 * scale)}" fill="${shade(p.accent, -0.3)}"/>`;
  let crown = "";
  for (let i = 0; i < 6; i += 1) {
    const cx = x + (rand() - 0.5) * 56 * scale;
    const cy = GROUND - 150 * scale + (rand() - 0.5) * 60 * scale;
    const r = (26 + rand() * 18) * scale;
    crown += `<circle cx="${r1(cx)}" cy="${r1(cy)}" r="${r1(r)}" fill="${shade(green, (rand() - 0.5) * 0.25)}" opacity="0.88"/>`;
  }
  return `<ellipse cx="${r1(x)}" cy="${GROUND + 6}" rx="${r1(44 * scale)}" ry="7" fill="#000" opacity="0.12" filter="url(#soft)"/>${trunk}${crown}`;
}

/** Sky, a low sun, pavement with joints. */
function setting(d: Draw): string {
  const { p, mirror } = d;
  const paving = shade(p.sample, -0.08);
  let joints = "";
  for (const y of [528, 552, 582]) {
    joints += `<line x1="0" y1="${y}" x2="${W}" y2="${y}" stroke="${shade(paving, -0.2)}" stroke-opacity="0.35"/>`;
  }
  for (let x = 40; x < W; x += 96) {
    joints += `<line x1="${x}" y1="${GROUND}" x2="${x - 30}" y2="${H}" stroke="${shade(paving, -0.2)}" stroke-opacity="0.2"/>`;
  }
  return (
    `<rect width="${W}" height="${GROUND}" fill="url(#sky)"/>` +
    `<circle cx="${mirror ? 150 : 650}" cy="110" r="150" fill="url(#glow)"/>` +
    `<rect y="${GROUND}" width="${W}" height="${H - GROUND}" fill="${paving}"/>${joints}` +
    `<rect y="${GROUND}" width="${W}" height="5" fill="${shade(paving, -0.25)}" opacity="0.5"/>`
  );
}

/** A glass office-and-showroom tower: a grid of panes, a few lit, over a double-height shop front. */
function curtain(d: Draw): string {
  const { p, rand } = d;
  const x0 = mx(d, 150, 470);
  const frame = shade(p.accent, -0.35);
  let panes = "";
  const cols = 8;
  const pw = 470 / cols;
  for (let y = 56; y < 360; y += 38) {
    for (let c = 0; c < cols; c += 1) {
      const lit = rand() < 0.16;
      panes += `<rect x="${r1(x0 + c * pw + 2)}" y="${y + 2}" width="${r1(pw - 4)}" height="34" fill="${lit ? "url(#lit)" : "url(#gl)"}" opacity="${lit ? 0.9 : 1}"/>`;
    }
  }
  const podium = mx(d, 40, 110);
  return (
    `<rect x="${podium}" y="300" width="110" height="${GROUND - 300}" fill="${shade(p.wall, -0.08)}"/>` +
    `<rect x="${podium}" y="300" width="110" height="10" fill="${shade(p.wall, -0.18)}"/>` +
    `<rect x="${x0 - 6}" y="44" width="482" height="${GROUND - 44}" fill="${frame}"/>${panes}` +
    // A sky reflection sweeping across the glass.
    `<path d="M${x0} 44 h180 L${x0 + 60} 360 H${x0} Z" fill="#fff" opacity="0.1"/>` +
    `<rect x="${x0 - 14}" y="368" width="498" height="14" fill="${shade(p.sample, 0.1)}"/>` +
    shopWindow(d, x0 + 10, 392, 450, GROUND - 392, 5) +
    tree(d, mx(d, 700), 1.1) +
    tree(d, mx(d, 95), 0.75)
  );
}

/** A plaster block veiled in vertical timber fins above a glazed ground floor. */
function louvres(d: Draw): string {
  const { p, rand } = d;
  let fins = "";
  for (let x = 96; x < 704; x += 15) {
    const tone = shade(p.floor, (rand() - 0.5) * 0.14);
    fins += `<rect x="${x + 3}" y="120" width="7" height="238" fill="#000" opacity="0.16"/><rect x="${x}" y="118" width="7" height="240" fill="${tone}"/>`;
  }
  const door = mx(d, 520, 160);
  return (
    `<rect x="80" y="100" width="640" height="${GROUND - 100}" fill="${shade(p.wall, -0.03)}"/>` +
    `<rect x="80" y="100" width="640" height="8" fill="${shade(p.wall, -0.15)}"/>` +
    `<rect x="96" y="118" width="608" height="240" fill="${shade(p.accent, -0.25)}"/>${fins}` +
    `<rect x="80" y="358" width="640" height="22" fill="${shade(p.sample, 0.05)}"/>` +
    `<rect x="80" y="378" width="640" height="6" fill="#000" opacity="0.1"/>` +
    shopWindow(d, mx(d, 100, 400), 396, 400, GROUND - 396, 4) +
    `<rect x="${door}" y="396" width="160" height="${GROUND - 396}" fill="${shade(p.wall, -0.1)}"/>` +
    `<rect x="${door + 46}" y="420" width="68" height="${GROUND - 420}" fill="url(#gl)"/>` +
    `<rect x="${door + 52}" y="404" width="56" height="8" fill="${p.accent}"/>` +
    tree(d, mx(d, 52), 0.9) +
    tree(d, mx(d, 760), 1.05)
  );
}

/** A stone-coursed building with an arcade of lit arches and tall windows above. */
function arcade(d: Draw): string {
  const { p } = d;
  const stone = shade(p.sample, 0.08);
  let courses = "";
  for (let y = 130; y < GROUND; y += 34) {
    courses += `<line x1="60" y1="${y}" x2="740" y2="${y}" stroke="${shade(stone, -0.12)}" stroke-opacity="0.55"/>`;
  }
  let windows = "";
  for (let r = 0; r < 2; r += 1) {
    for (let c = 0; c < 7; c += 1) {
      const x = 96 + c * 90;
      const y = 126 + r * 96;
      windows += `<rect x="${x - 4}" y="${y - 4}" width="44" height="80" fill="${shade(stone, -0.14)}"/><rect x="${x}" y="${y}" width="36" height="72" fill="url(#gl)"/><rect x="${x}" y="${y + 34}" width="36" height="3" fill="${shade(stone, -0.3)}"/><rect x="${x - 6}" y="${y + 72}" width="48" height="6" fill="${shade(stone, 0.15)}"/>`;
    }
  }
  let arches = "";
  for (let i = 0; i < 5; i += 1) {
    const x = 86 + i * 128;
    const w = 104;
    const path = `M${x} ${GROUND} V360 A${w / 2} ${w / 2} 0 0 1 ${x + w} 360 V${GROUND} Z`;
    arches += `<path d="${path}" fill="${shade(stone, -0.22)}"/><path d="M${x + 8} ${GROUND} V364 A${w / 2 - 8} ${w / 2 - 8} 0 0 1 ${x + w - 8} 364 V${GROUND} Z" fill="url(#lit)"/><rect x="${x + 16}" y="400" width="${w - 32}" height="60" fill="${i % 2 ? p.floor : p.accent}" opacity="0.55"/>`;
  }
  return (
    `<rect x="60" y="92" width="680" height="${GROUND - 92}" fill="${stone}"/>${courses}` +
    `<rect x="50" y="86" width="700" height="16" fill="${shade(stone, -0.1)}"/><rect x="50" y="102" width="700" height="4" fill="#000" opacity="0.1"/>` +
    windows +
    `<rect x="60" y="318" width="680" height="10" fill="${shade(stone, -0.08)}"/>` +
    arches +
    tree(d, mx(d, 30), 0.8)
  );
}

/** A brick warehouse with a saw-tooth roof, steel-framed windows and a black canopy. */
function warehouse(d: Draw): string {
  const { p } = d;
  const brick = shade(p.floor, -0.05);
  const mortar = shade(p.sample, 0.15);
  const pattern = `<pattern id="brick" width="48" height="28" patternUnits="userSpaceOnUse"><rect width="48" height="28" fill="${mortar}"/><rect x="1" y="1" width="45" height="12" fill="${brick}"/><rect x="-23" y="15" width="45" height="12" fill="${shade(brick, -0.06)}"/><rect x="25" y="15" width="45" height="12" fill="${shade(brick, 0.05)}"/></pattern>`;
  let teeth = "";
  for (let i = 0; i < 4; i += 1) {
    const x = 110 + i * 145;
    teeth += `<path d="M${x} 150 L${x + 145} 150 L${x + 145} 96 Z" fill="${shade(p.accent, -0.2)}"/><path d="M${x + 145} 96 L${x + 145} 150 L${x + 132} 150 L${x + 132} 106 Z" fill="url(#gl)"/>`;
  }
  let windows = "";
  const steel = shade(p.accent, -0.55);
  for (let i = 0; i < 3; i += 1) {
    const x = 150 + i * 180;
    windows += `<rect x="${x - 6}" y="174" width="152" height="172" fill="${shade(brick, -0.25)}"/><rect x="${x}" y="180" width="140" height="160" fill="url(#gl)"/>`;
    for (let c = 1; c < 4; c += 1)
      windows += `<rect x="${x + c * 35 - 1}" y="180" width="2" height="160" fill="${steel}"/>`;
    for (let r = 1; r < 5; r += 1)
      windows += `<rect x="${x}" y="${180 + r * 32 - 1}" width="140" height="2" fill="${steel}"/>`;
    windows += `<rect x="${x - 8}" y="344" width="156" height="8" fill="${shade(p.sample, 0.2)}"/>`;
  }
  const canopy = mx(d, 250, 300);
  return (
    `<defs>${pattern}</defs>${teeth}` +
    `<rect x="110" y="150" width="580" height="${GROUND - 150}" fill="url(#brick)"/>` +
    `<rect x="104" y="146" width="592" height="8" fill="${steel}"/>${windows}` +
    shopWindow(d, 150, 404, 500, GROUND - 404, 5) +
    `<rect x="${canopy}" y="386" width="300" height="12" fill="${steel}"/><line x1="${canopy + 20}" y1="386" x2="${canopy + 60}" y2="360" stroke="${steel}" stroke-width="3"/><line x1="${canopy + 280}" y1="386" x2="${canopy + 240}" y2="360" stroke="${steel}" stroke-width="3"/>` +
    tree(d, mx(d, 740), 1)
  );
}

/** Stacked concrete volumes stepping back, each terrace edged with planting. */
function terraces(d: Draw): string {
  const { p, rand } = d;
  const concrete = shade(p.sample, -0.02);
  const green = "#7f8a6a";
  const hedge = (x: number, y: number, w: number) => {
    let out = "";
    for (let i = 0; i < w / 14; i += 1)
      out += `<ellipse cx="${r1(x + i * 14 + 7)}" cy="${r1(y - 4 - rand() * 5)}" rx="${r1(10 + rand() * 5)}" ry="${r1(8 + rand() * 4)}" fill="${shade(green, (rand() - 0.5) * 0.3)}"/>`;
    return out;
  };
  const volume = (x: number, y: number, w: number, h: number, band: boolean) =>
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${concrete}"/><rect x="${x}" y="${y}" width="${w}" height="10" fill="${shade(concrete, 0.12)}"/>` +
    (band
      ? `<rect x="${x + 20}" y="${y + 30}" width="${w - 40}" height="${h - 56}" fill="url(#gl)"/><rect x="${x + 20}" y="${y + h - 26}" width="${w - 40}" height="6" fill="#000" opacity="0.08"/>`
      : "") +
    `<rect x="${x}" y="${y + h}" width="${w}" height="6" fill="#000" opacity="0.08"/>`;
  const shift = d.mirror ? -60 : 60;
  return (
    volume(250 + shift, 120, 360, 110, true) +
    volume(150 + shift / 2, 230, 540, 130, true) +
    hedge(150 + shift / 2, 232, 540) +
    `<rect x="60" y="360" width="680" height="${GROUND - 360}" fill="${shade(concrete, -0.06)}"/>` +
    hedge(60, 362, 680) +
    shopWindow(d, 90, 394, 620, GROUND - 394, 6) +
    hedge(250 + shift, 122, 360)
  );
}

/** A monolithic stone front with one great bronze-framed arched portal. */
function portal(d: Draw): string {
  const { p, rand } = d;
  const stone = shade(p.wall, -0.06);
  let blocks = "";
  for (let y = 70, row = 0; y < GROUND; y += 62, row += 1) {
    blocks += `<line x1="90" y1="${y}" x2="710" y2="${y}" stroke="${shade(stone, -0.14)}" stroke-opacity="0.6"/>`;
    for (let x = 90 + (row % 2) * 70; x < 710; x += 140)
      blocks += `<line x1="${x}" y1="${y}" x2="${x}" y2="${Math.min(y + 62, GROUND)}" stroke="${shade(stone, -0.14)}" stroke-opacity="0.5"/>`;
    blocks += `<rect x="90" y="${y}" width="620" height="62" fill="${shade(stone, (rand() - 0.5) * 0.05)}" opacity="0.5"/>`;
  }
  const bronze = shade(p.floor, -0.2);
  const cx = W / 2;
  const arch = (inset: number) =>
    `M${cx - 120 + inset} ${GROUND} V${290 + inset / 2} A${120 - inset} ${120 - inset} 0 0 1 ${cx + 120 - inset} ${290 + inset / 2} V${GROUND} Z`;
  let inside = "";
  for (let i = 0; i < 4; i += 1) {
    inside += `<rect x="${cx - 80 + i * 42}" y="300" width="34" height="120" fill="${shade([p.accent, p.sample, p.floor, p.wall][i] as string, -0.05)}" opacity="0.8"/>`;
  }
  return (
    `<rect x="90" y="70" width="620" height="${GROUND - 70}" fill="${stone}"/>${blocks}` +
    `<rect x="84" y="62" width="632" height="12" fill="${shade(stone, -0.12)}"/>` +
    `<path d="${arch(-18)}" fill="${shade(stone, -0.2)}"/>` +
    `<path d="${arch(0)}" fill="url(#lit)"/>${inside}` +
    `<path d="M${cx - 120} ${GROUND} L${cx - 70} 440 H${cx + 70} L${cx + 120} ${GROUND} Z" fill="${shade(p.floor, 0.2)}" opacity="0.7"/>` +
    `<path d="${arch(0)}" fill="none" stroke="${bronze}" stroke-width="8"/>` +
    `<line x1="${cx}" y1="170" x2="${cx}" y2="${GROUND}" stroke="${bronze}" stroke-width="3"/>` +
    `<rect x="160" y="150" width="18" height="240" fill="${shade(p.accent, -0.3)}"/><rect x="622" y="150" width="18" height="240" fill="${shade(p.accent, -0.3)}"/>` +
    `<rect x="${cx - 60}" y="112" width="120" height="6" fill="${bronze}"/>` +
    tree(d, mx(d, 40), 0.9)
  );
}

/** A row of three pitched-roof houses, plaster and timber, each with a shop window below. */
function gables(d: Draw): string {
  const { p } = d;
  const houses = [
    { x: 70, w: 210, top: 150, fill: shade(p.wall, -0.02) },
    { x: 290, w: 230, top: 110, fill: shade(p.floor, 0.05) },
    { x: 530, w: 200, top: 170, fill: shade(p.sample, -0.04) },
  ];
  let out = "";
  houses.forEach((h, i) => {
    const x = d.mirror ? W - h.x - h.w : h.x;
    const ridge = h.top - h.w * 0.32;
    out += `<path d="M${x - 10} ${h.top + 4} L${x + h.w / 2} ${r1(ridge)} L${x + h.w + 10} ${h.top + 4} Z" fill="${shade(p.accent, -0.25)}"/>`;
    out += `<path d="M${x} ${h.top + 6} L${x + h.w / 2} ${r1(ridge + 12)} L${x + h.w} ${h.top + 6} V${GROUND} H${x} Z" fill="${h.fill}"/>`;
    if (i === 1) {
      for (let k = 0; k < 15; k += 1)
        out += `<rect x="${x + 6 + k * 15}" y="${h.top + 10}" width="3" height="${360 - h.top - 10}" fill="${shade(h.fill, -0.18)}"/>`;
    }
    out += `<rect x="${x + h.w / 2 - 40}" y="${h.top + 30}" width="80" height="110" fill="url(#gl)"/><rect x="${x + h.w / 2 - 46}" y="${h.top + 140}" width="92" height="6" fill="${shade(h.fill, -0.2)}"/>`;
    out += shopWindow(d, x + 18, 380, h.w - 36, GROUND - 380, 2);
    out += `<rect x="${x}" y="362" width="${h.w}" height="8" fill="${shade(h.fill, -0.15)}"/>`;
  });
  return out + tree(d, mx(d, 764), 0.8);
}

const DRAW_STYLE: Record<FacadeStyle, (d: Draw) => string> = {
  curtain,
  louvres,
  arcade,
  warehouse,
  terraces,
  portal,
  gables,
};

export function facade(
  [wall = "#ece5da", floor = "#a27150", accent = "#7d5236", sample = "#d8d2c8"]: string[],
  seed: number,
): string {
  const style = FACADE_STYLES[seed % FACADE_STYLES.length] as FacadeStyle;
  const variant = Math.floor(seed / FACADE_STYLES.length);
  const d: Draw = { p: { wall, floor, accent, sample }, rand: prng(seed + 11), mirror: variant % 2 === 1 };
  return svg(
    `${setting(d)}${DRAW_STYLE[style](d)}<rect width="${W}" height="${H}" fill="url(#sun)"/><rect width="${W}" height="${H}" filter="url(#g)"/>`,
    commonDefs(d.p, seed),
  );
}

/**
 * The home page's picture: a plastered wall cut by a tall arch, through which a sunlit room of
 * materials (a timber floor, a stone plinth, a wall of samples). Centred so a 3:4 crop keeps it.
 */
export function gallery(
  [wall = "#e9e1d5", floor = "#a27150", stone = "#d8d2c8", accent = "#7d5236"]: string[],
  seed: number,
): string {
  const rand = prng(seed + 5);
  const cx = W / 2;
  const archTop = 110;
  const half = 150;
  const horizon = 420;
  let planks = "";
  for (let i = -8; i <= 8; i += 1) {
    planks += `<line x1="${cx + i * 14}" y1="${horizon}" x2="${cx + i * 70}" y2="${H}" stroke="${shade(floor, -0.3)}" stroke-opacity="0.3"/>`;
  }
  let samples = "";
  const colours = [stone, accent, floor, shade(wall, -0.1), stone];
  for (let i = 0; i < 5; i += 1) {
    samples += `<rect x="${cx - 110 + i * 46}" y="${250 + (i % 2) * 14}" width="36" height="${96 - (i % 2) * 14}" fill="${shade(colours[i] as string, (rand() - 0.5) * 0.2)}"/>`;
  }
  const opening = `M${cx - half} ${H} V${archTop + half} A${half} ${half} 0 0 1 ${cx + half} ${archTop + half} V${H} Z`;
  return svg(
    `<rect width="${W}" height="${H}" fill="url(#plaster)"/><rect width="${W}" height="${H}" filter="url(#g)"/>` +
      // The room beyond the arch.
      `<g clip-path="url(#arch)"><rect width="${W}" height="${horizon}" fill="url(#room)"/>${samples}` +
      `<rect y="${horizon}" width="${W}" height="${H - horizon}" fill="url(#floor)"/>${planks}` +
      `<path d="M${cx + 20} ${horizon} L${cx + 150} ${horizon} L${cx + 40} ${H} L${cx - 190} ${H} Z" fill="#fff8ec" opacity="0.2"/>` +
      `<path d="M${cx + 60} 150 h60 v170 h-60 Z" fill="#fff8ec" opacity="0.25"/>` +
      `<rect x="${cx - 70}" y="${horizon - 52}" width="140" height="62" fill="${stone}"/><rect x="${cx - 70}" y="${horizon - 52}" width="140" height="8" fill="${shade(stone, 0.3)}"/><rect x="${cx - 70}" y="${horizon + 10}" width="140" height="8" fill="#000" opacity="0.12"/>` +
      `<ellipse cx="${cx - 30}" cy="${horizon - 70}" rx="19" ry="19" fill="url(#sphere)"/><rect x="${cx + 14}" y="${horizon - 112}" width="26" height="60" rx="3" fill="${shade(accent, -0.05)}"/><rect x="${cx + 14}" y="${horizon - 112}" width="9" height="60" fill="#fff" opacity="0.12"/>` +
      `<rect width="${W}" height="${H}" fill="url(#depth)"/></g>` +
      // The arch's deep reveal and the sunlight falling through it.
      `<path d="${opening}" fill="none" stroke="${shade(wall, -0.14)}" stroke-width="18"/>` +
      `<path d="${opening}" fill="none" stroke="${shade(wall, 0.25)}" stroke-width="3" transform="translate(-9 0)"/>` +
      `<path d="M0 0 H${W * 0.32} L${W * 0.08} ${H} H0 Z" fill="#fff" opacity="0.14"/>` +
      `<rect width="${W}" height="${H}" fill="url(#vignette)"/>`,
    `<linearGradient id="plaster" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${shade(wall, 0.25)}"/><stop offset="1" stop-color="${shade(wall, -0.08)}"/></linearGradient>` +
      `<linearGradient id="room" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${shade(wall, -0.1)}"/><stop offset="1" stop-color="${shade(wall, 0.3)}"/></linearGradient>` +
      `<linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${shade(floor, -0.2)}"/><stop offset="1" stop-color="${shade(floor, 0.1)}"/></linearGradient>` +
      `<linearGradient id="depth" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#000" stop-opacity="0.18"/><stop offset="0.4" stop-color="#000" stop-opacity="0"/></linearGradient>` +
      `<radialGradient id="vignette" cx="0.5" cy="0.45" r="0.75"><stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.12"/></radialGradient>` +
      `<radialGradient id="sphere" cx="0.35" cy="0.35" r="0.7"><stop offset="0" stop-color="${shade(stone, 0.35)}"/><stop offset="1" stop-color="${shade(stone, -0.25)}"/></radialGradient>` +
      `<clipPath id="arch"><path d="${opening}"/></clipPath>` +
      grainFilter("g", seed, "0.8", 0.14, 2),
  );
}
