// npm run bench:images — how long an upload of a 12 MP phone photo takes to process (issue 14 item 3, ADR 028).
//
// A 4000 × 3000 JPEG with EXIF (camera, time, GPS) is made once with sharp, then processed by the app's own
// pipeline (app/domain/images/process.server.ts, loaded through Vite as the server does): sniff, header and
// pixel check, one decode turned upright and shrunk, AVIF + WebP + JPEG at 480/960/1600. Each round also times
// a plain sharp decode of the same file to raw pixels (the baseline), so a busy machine shows as a higher
// baseline rather than as a slower pipeline. Goal: p50 ≤ 3 s. Prints a table; writes bench/results/images.json.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { createServer } from "vite";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const rounds = Math.max(1, Number(values.rounds) || 5);
const GOAL_MS = 3000;

const vite = await createServer({
  root,
  configFile: path.join(root, "vite.config.ts"),
  logLevel: "warn",
  server: { middlewareMode: true, hmr: false, ws: false },
  appType: "custom",
});
try {
  const { processImage } = await vite.ssrLoadModule("/app/domain/images/process.server.ts");
  const { photoJpeg } = await vite.ssrLoadModule("/app/domain/images/testing.server.ts");
  const photo = await photoJpeg(4000, 3000);
  console.log(`source: 4000 × 3000 JPEG with EXIF, ${(photo.length / 1024 / 1024).toFixed(1)} MB`);

  // One warm-up of each (libvips loads its codecs on first use).
  await sharp(photo).raw().toBuffer();
  await processImage(photo);

  const pipeline = [];
  const pipelineCpu = [];
  const baseline = [];
  let variants = null;
  for (let i = 0; i < rounds; i++) {
    let t = performance.now();
    await sharp(photo).raw().toBuffer();
    baseline.push(performance.now() - t);
    const cpu = process.cpuUsage();
    t = performance.now();
    const result = await processImage(photo);
    pipeline.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    pipelineCpu.push((used.user + used.system) / 1000);
    variants = result.variants;
  }
  const sorted = (list) => [...list].sort((a, b) => a - b);
  const p50 = (list) => sorted(list)[Math.floor((list.length - 1) / 2)];
  const max = (list) => sorted(list).at(-1);
  const figures = {
    rounds,
    cores: os.availableParallelism(),
    loadAverage: os.loadavg()[0],
    pipelineP50Ms: Math.round(p50(pipeline)),
    pipelineMaxMs: Math.round(max(pipeline)),
    pipelineCpuP50Ms: Math.round(p50(pipelineCpu)),
    baselineP50Ms: Math.round(p50(baseline)),
    ratioToBaseline: Math.round((p50(pipeline) / p50(baseline)) * 10) / 10,
    variants: variants.map((v) => `${v.width}.${v.format} ${(v.bytes / 1024).toFixed(0)} kB`),
    goalMs: GOAL_MS,
    pass: p50(pipeline) <= GOAL_MS,
  };
  const rows = [
    ["processing p50 (ms)", figures.pipelineP50Ms],
    ["processing max (ms)", figures.pipelineMaxMs],
    ["processing CPU p50 (ms)", figures.pipelineCpuP50Ms],
    ["baseline decode p50 (ms)", figures.baselineP50Ms],
    ["ratio to baseline", figures.ratioToBaseline],
    ["load average (1 min)", Math.round(figures.loadAverage * 10) / 10],
  ];
  for (const [name, value] of rows) console.log(`${name.padEnd(28)} ${value}`);
  console.log(`variants: ${figures.variants.join(", ")}`);
  console.log(`${figures.pass ? "PASS" : "FAIL"}: p50 ${figures.pipelineP50Ms} ms (goal ≤ ${GOAL_MS} ms)`);
  mkdirSync(path.join(root, "bench/results"), { recursive: true });
  writeFileSync(path.join(root, "bench/results/images.json"), `${JSON.stringify(figures, null, 2)}\n`);
} finally {
  await vite.close();
}
