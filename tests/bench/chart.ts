// A small chart of tool round trip vs run length (ours vs the naive loop), as SVG and PNG.
import { writeFileSync } from "node:fs";

interface Series {
  label: string;
  color: string;
  points: { calls: number; medianMs: number }[];
}

/** Renders the series as an SVG line chart. */
export function roundTripChart(series: Series[]): string {
  const width = 560;
  const height = 320;
  const pad = { left: 56, right: 150, top: 30, bottom: 44 };
  const xs = series.flatMap((s) => s.points.map((p) => p.calls));
  const ys = series.flatMap((s) => s.points.map((p) => p.medianMs));
  const maxX = Math.max(...xs, 1);
  const maxY = Math.max(...ys, 1) * 1.1;
  const x = (v: number) => pad.left + (Math.log10(v) / Math.log10(maxX)) * (width - pad.left - pad.right);
  const y = (v: number) => height - pad.bottom - (v / maxY) * (height - pad.top - pad.bottom);
  const lines = series.map((s, i) => {
    const path = s.points
      .map((p, j) => `${j ? "L" : "M"}${x(p.calls).toFixed(1)},${y(p.medianMs).toFixed(1)}`)
      .join(" ");
    const dots = s.points
      .map(
        (p) =>
          `<circle cx="${x(p.calls).toFixed(1)}" cy="${y(p.medianMs).toFixed(1)}" r="3" fill="${s.color}"/>`,
      )
      .join("");
    return `<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2"/>${dots}<text x="${width - pad.right + 12}" y="${pad.top + 16 + i * 18}" fill="${s.color}" font-size="12">${s.label}</text>`;
  });
  const ticksY = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const v = maxY * f;
    return `<text x="${pad.left - 8}" y="${y(v) + 4}" font-size="10" text-anchor="end">${Math.round(v)}</text><line x1="${pad.left}" x2="${width - pad.right}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/>`;
  });
  const ticksX = [...new Set(xs)].map(
    (v) =>
      `<text x="${x(v)}" y="${height - pad.bottom + 16}" font-size="10" text-anchor="middle">${v}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>${ticksY.join("")}${ticksX.join("")}${lines.join("")}<text x="${pad.left}" y="18" font-size="13">Tool round trip, median (ms) vs tool calls per run</text><text x="${(pad.left + width - pad.right) / 2}" y="${height - 8}" font-size="11" text-anchor="middle">tool calls in the run (log scale)</text></svg>`;
}

/** Writes the chart as SVG, and as PNG when a Chromium is at hand. */
export async function writeChart(svg: string, basePath: string): Promise<string[]> {
  writeFileSync(`${basePath}.svg`, svg);
  const written = [`${basePath}.svg`];
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  try {
    const { chromium } = await import("@playwright/test");
    const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
    const page = await browser.newPage({ viewport: { width: 560, height: 320 } });
    await page.setContent(svg);
    await page.screenshot({ path: `${basePath}.png` });
    await browser.close();
    written.push(`${basePath}.png`);
  } catch (error) {
    console.warn(`PNG chart skipped (${(error as Error).message.split("\n")[0]}); the SVG is there.`);
  }
  return written;
}
