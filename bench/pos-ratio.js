// Same-run ratios for `npm run bench:pos -- --spend` / `--growth` (bench/pos-compare.js): each round measures the
// plain purchase and the other kind back to back on the same server; the figures are per-round ratios and their
// median, so a slow moment of the shared machine hits both sides of a ratio.

/** The middle value (the upper one of the two middles for an even count); null for none. */
export function median(values) {
  const xs = values.filter((x) => typeof x === "number" && Number.isFinite(x));
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * The order of the kinds in round `round` (1-based): the list rotated by one each round, so each kind is first, in
 * the middle and last equally often, and a trend over the run (the tables growing, the machine's load changing)
 * does not always favour the same kind.
 */
export function roundOrder(kinds, round) {
  const shift = (round - 1) % kinds.length;
  return [...kinds.slice(shift), ...kinds.slice(0, shift)];
}

/**
 * How much more a purchase of kind `other` costs than one of kind `base`, per round: `throughput` = base's
 * purchases/s ÷ other's (above 1: the other kind is dearer), `p50` and `p99` = other's latency ÷ base's, `appCpu`,
 * `backendCpu` and `postgresCpu` = other's CPU per purchase ÷ base's. `segments`: `{ kind, round, perSecond, p50Ms,
 * p99Ms, appCpuMs, backendCpuMs, postgresCpuMs }`. A ratio whose parts are missing or zero is null. Returns the
 * rounds and the medians.
 */
export function compareKinds(segments, base, other) {
  const rounds = [...new Set(segments.map((s) => s.round))].sort((a, b) => a - b);
  const ratio = (numerator, denominator) =>
    typeof numerator === "number" && typeof denominator === "number" && numerator > 0 && denominator > 0
      ? numerator / denominator
      : null;
  const perRound = [];
  for (const round of rounds) {
    const b = segments.find((s) => s.round === round && s.kind === base);
    const o = segments.find((s) => s.round === round && s.kind === other);
    if (!b || !o) continue;
    perRound.push({
      round,
      throughput: ratio(b.perSecond, o.perSecond),
      p50: ratio(o.p50Ms, b.p50Ms),
      p99: ratio(o.p99Ms, b.p99Ms),
      appCpu: ratio(o.appCpuMs, b.appCpuMs),
      backendCpu: ratio(o.backendCpuMs, b.backendCpuMs),
      postgresCpu: ratio(o.postgresCpuMs, b.postgresCpuMs),
    });
  }
  const medianOf = (key) => median(perRound.map((r) => r[key]));
  return {
    base,
    other,
    rounds: perRound,
    throughput: medianOf("throughput"),
    p50: medianOf("p50"),
    p99: medianOf("p99"),
    appCpu: medianOf("appCpu"),
    backendCpu: medianOf("backendCpu"),
    postgresCpu: medianOf("postgresCpu"),
  };
}
