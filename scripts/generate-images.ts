// npx tsx scripts/generate-images.ts: draws the product and collection illustrations.
// Deterministic: the same catalogue always gives byte-identical files, which are committed.
import { mkdirSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allCollectionHandles, allProductImages, COLLECTION_IMAGE, COLLECTION_SCENES, PRODUCT_IMAGE_SIZE } from '@/db/seed/images';
import { DEMO_COLLECTIONS } from '@/db/seed/catalog-demo';
import { OUTLET_COLLECTIONS } from '@/db/seed/catalog-outlet';
import { hash32 } from '@/db/seed/ids';
import type { Kind } from '@/db/seed/kinds';
import { COLOR_WORDS, PALETTE, type ColorName } from '@/db/seed/palette';

// ---------------------------------------------------------------- colour helpers
const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
const hex = (c: number[]) =>
  `#${c
    .map((v) =>
      Math.round(Math.max(0, Math.min(255, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase()}`;
/** Mix a towards b by t (0–1). */
const mix = (a: string, b: string, t: number) => {
  const x = rgb(a);
  const y = rgb(b);
  return hex(x.map((v, i) => v + ((y[i] ?? 0) - v) * t));
};
const luminance = (c: string) => {
  const [r, g, b] = rgb(c);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
};

type Paint = { c: string; d: string; dd: string; l: string; ll: string; bg: string };
const paint = (c: string, bg: string): Paint => ({
  c,
  bg,
  d: mix(c, '#000000', 0.18),
  dd: mix(c, '#000000', 0.38),
  l: mix(c, '#FFFFFF', 0.3),
  ll: mix(c, '#FFFFFF', 0.6),
});

const WOOD = '#C79A63';
const WOOD_D = '#9C7444';
const INK = '#2B2B2B';
const GLOW = '#FFD98A';
const FLAME = '#F5A623';
const FLAME_IN = '#FFE7A3';
const LEAF = ['#3F7A4E', '#5C9A5F', '#7DB36E'];

// ---------------------------------------------------------------- svg helpers
type Attrs = Record<string, string | number>;
const attrs = (a: Attrs) =>
  Object.entries(a)
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ');
const rect = (x: number, y: number, w: number, h: number, rx: number, fill: string, extra: Attrs = {}) =>
  `<rect ${attrs({ x, y, width: w, height: h, rx, fill, ...extra })}/>`;
const circle = (cx: number, cy: number, r: number, fill: string, extra: Attrs = {}) => `<circle ${attrs({ cx, cy, r, fill, ...extra })}/>`;
const ellipse = (cx: number, cy: number, rx: number, ry: number, fill: string, extra: Attrs = {}) =>
  `<ellipse ${attrs({ cx, cy, rx, ry, fill, ...extra })}/>`;
const path = (d: string, fill: string, extra: Attrs = {}) => `<path ${attrs({ d, fill, ...extra })}/>`;
const stroke = (d: string, color: string, width: number, extra: Attrs = {}) =>
  path(d, 'none', { stroke: color, 'stroke-width': width, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', ...extra });
const group = (transform: string, inner: string) => `<g transform="${transform}">${inner}</g>`;
const shadow = (rx = 210, cy = 652) => ellipse(400, cy, rx, 22, '#000000', { opacity: 0.09 });
const highlight = (x: number, y: number, h: number, w = 18) => rect(x, y, w, h, w / 2, '#FFFFFF', { opacity: 0.28 });
const flame = (x: number, y: number, s = 1) =>
  group(
    `translate(${x} ${y}) scale(${s})`,
    circle(0, -20, 46, GLOW, { opacity: 0.35 }) +
      path('M0 -56 C18 -30 20 -8 0 0 C-20 -8 -18 -30 0 -56 Z', FLAME) +
      path('M0 -34 C8 -20 9 -8 0 -3 C-9 -8 -8 -20 0 -34 Z', FLAME_IN),
  );
const leaf = (x: number, y: number, angle: number, scale: number, fill: string) =>
  group(
    `translate(${x} ${y}) rotate(${angle}) scale(${scale})`,
    path('M0 0 C45 -40 45 -140 0 -180 C-45 -140 -45 -40 0 0 Z', fill) + stroke('M0 -10 V-165', '#FFFFFF', 4, { opacity: 0.35 }),
  );
/** A glow of warm light. */
const glow = (cx: number, cy: number, r: number, opacity = 0.3) => circle(cx, cy, r, GLOW, { opacity });

// ---------------------------------------------------------------- drawings (800×800 box, ground at y≈650)
function cup(x: number, y: number, w: number, h: number, p: Paint, rim?: string): string {
  const r = Math.round(w * 0.14);
  return (
    stroke(
      `M${x + w - 6} ${y + h * 0.22} C${x + w + w * 0.42} ${y + h * 0.22} ${x + w + w * 0.42} ${y + h * 0.72} ${x + w - 6} ${y + h * 0.72}`,
      p.d,
      Math.round(w * 0.13),
    ) +
    rect(x, y, w, h, r, p.c) +
    path(
      `M${x + w * 0.72} ${y} H${x + w - r} A${r} ${r} 0 0 1 ${x + w} ${y + r} V${y + h - r} A${r} ${r} 0 0 1 ${x + w - r} ${y + h} H${x + w * 0.72} Z`,
      p.d,
      { opacity: 0.35 },
    ) +
    rect(x, y, w, Math.round(h * 0.08), Math.round(h * 0.04), rim ?? p.d) +
    highlight(x + w * 0.12, y + h * 0.18, h * 0.62, Math.max(10, w * 0.08))
  );
}
const steam = (xs: number[], y: number) =>
  xs.map((x) => stroke(`M${x} ${y} c-22 -28 22 -48 0 -80`, '#FFFFFF', 12, { opacity: 0.75 })).join('');

const DRAW: Record<Kind, (p: Paint) => string> = {
  mug: (p) => shadow(190) + steam([335, 385, 435], 300) + cup(265, 330, 250, 310, p),
  espresso: (p) =>
    shadow(250) +
    [
      [170, p],
      [440, p],
    ]
      .map(([x]) => ellipse((x as number) + 95, 632, 130, 20, p.d) + cup(x as number, 470, 170, 150, p) + steam([(x as number) + 85], 440))
      .join(''),
  'camp-mug': (p) => {
    const specks = [
      [300, 420],
      [350, 520],
      [420, 450],
      [460, 570],
      [330, 600],
      [400, 380],
    ]
      .map(([x, y]) => circle(x ?? 0, y ?? 0, 5, '#FFFFFF', { opacity: 0.6 }))
      .join('');
    return shadow(200) + steam([340, 400, 460], 300) + cup(255, 340, 290, 300, p, '#3A3A3A') + specks;
  },
  dripper: (p) =>
    shadow(190) +
    path('M330 470 H470 L490 520 C600 560 590 640 520 645 H280 C210 640 200 560 310 520 Z', '#DCEBEF', { opacity: 0.9 }) +
    path('M232 585 C250 560 300 548 400 548 C500 548 550 560 568 585 C580 630 540 645 520 645 H280 C260 645 220 630 232 585 Z', '#5A3A24') +
    highlight(300, 560, 60, 14) +
    rect(300, 440, 200, 26, 12, p.d) +
    path('M240 250 H560 L480 440 H320 Z', p.c) +
    path('M470 250 H560 L480 440 H440 Z', p.d, { opacity: 0.3 }) +
    stroke('M560 290 C620 290 620 370 530 380', p.c, 22) +
    rect(230, 236, 340, 26, 13, p.d) +
    [330, 370, 410, 450].map((x) => stroke(`M${x} 280 L${x + (400 - x) * 0.35} 420`, p.d, 5, { opacity: 0.45 })).join(''),
  coffee: (p) =>
    shadow(180) +
    path('M270 255 H530 L548 640 H252 Z', p.c) +
    path('M470 255 H530 L548 640 H490 Z', p.d, { opacity: 0.35 }) +
    rect(262, 225, 276, 50, 8, p.d) +
    [290, 330, 370, 410, 450, 490].map((x) => stroke(`M${x} 232 V268`, p.dd, 4, { opacity: 0.5 })).join('') +
    rect(310, 370, 180, 190, 14, '#F6EFE2') +
    ellipse(400, 440, 32, 46, '#5A3A24') +
    stroke('M400 398 C385 425 415 455 400 482', '#F6EFE2', 6) +
    rect(340, 505, 120, 10, 5, '#BFB5A5') +
    rect(360, 526, 80, 8, 4, '#BFB5A5') +
    [
      [590, 635, 20],
      [625, 640, -30],
      [560, 645, 60],
    ]
      .map(([x, y, a]) =>
        group(`translate(${x} ${y}) rotate(${a})`, ellipse(0, 0, 14, 20, '#5A3A24') + stroke('M0 -16 C-5 -5 5 5 0 16', '#8A6243', 3)),
      )
      .join(''),
  board: (p) =>
    shadow(200) +
    rect(358, 190, 84, 150, 36, p.c) +
    circle(400, 232, 17, p.bg) +
    rect(250, 300, 300, 345, 44, p.c) +
    rect(250, 605, 300, 40, 20, p.d, { opacity: 0.5 }) +
    [330, 380, 430, 480]
      .map((x, i) => stroke(`M${x} 330 C${x + 18} 400 ${x - 18} 480 ${x + (i % 2 ? 12 : -12)} 580`, p.d, 4, { opacity: 0.35 }))
      .join('') +
    group('translate(470 520) rotate(-20)', leaf(0, 0, 0, 0.35, LEAF[1] ?? '#5C9A5F') + leaf(10, 0, 35, 0.3, LEAF[2] ?? '#7DB36E')),
  bowl: (p) =>
    shadow(220) +
    ellipse(400, 420, 220, 52, p.dd) +
    circle(330, 405, 52, '#F2C94C') +
    circle(420, 392, 56, '#8DBF5A') +
    circle(490, 410, 46, '#F08A3C') +
    circle(375, 385, 6, '#4E7D32') +
    path('M180 420 A220 220 0 0 0 620 420 A220 52 0 0 1 180 420 Z', p.c) +
    path('M520 448 A220 220 0 0 1 400 640 A220 220 0 0 0 600 430 Z', p.d, { opacity: 0.3 }) +
    rect(330, 630, 140, 18, 9, p.d) +
    highlight(230, 470, 80, 16),
  plate: (p) =>
    shadow(260, 560) +
    ellipse(400, 500, 270, 150, p.d) +
    ellipse(400, 482, 270, 150, p.c) +
    ellipse(400, 482, 190, 100, p.l, { opacity: 0.7 }) +
    ellipse(400, 482, 190, 100, 'none', { stroke: p.d, 'stroke-width': 4, opacity: 0.4 }) +
    [
      [300, 430],
      [470, 520],
      [520, 440],
      [350, 540],
      [420, 410],
      [610, 500],
      [200, 470],
    ]
      .map(([x, y]) => circle(x ?? 0, y ?? 0, 4, p.dd, { opacity: 0.35 }))
      .join(''),
  kettle: (p) =>
    shadow(200) +
    path('M268 520 L170 395 L196 382 L300 470 Z', p.c) +
    stroke('M300 365 C300 225 500 225 500 365', WOOD_D, 24) +
    path('M272 640 H528 Q562 640 556 600 L512 392 Q504 362 472 362 H328 Q296 362 288 392 L244 600 Q238 640 272 640 Z', p.c) +
    path('M470 362 Q504 362 512 392 L556 600 Q562 640 528 640 H480 Z', p.d, { opacity: 0.3 }) +
    ellipse(400, 362, 86, 16, p.d) +
    circle(400, 338, 17, INK) +
    highlight(300, 420, 170, 16),
  glass: (p) =>
    shadow(240) +
    [
      [205, 1],
      [425, 0.92],
    ]
      .map(([x, s]) =>
        group(
          `translate(${x} ${640 - 300 * (s ?? 1)}) scale(${s})`,
          path('M0 0 H170 L156 300 H14 Z', p.c, { opacity: 0.55, stroke: p.dd, 'stroke-width': 3, 'stroke-opacity': 0.5 }) +
            path('M8 110 H162 L156 300 H14 Z', p.d, { opacity: 0.3 }) +
            rect(14, 268, 142, 32, 6, p.d, { opacity: 0.5 }) +
            ellipse(85, 0, 85, 10, 'none', { stroke: '#FFFFFF', 'stroke-width': 4, opacity: 0.8 }) +
            highlight(26, 30, 220, 12),
        ),
      )
      .join(''),
  bottle: (p) =>
    shadow(130) +
    stroke('M375 160 C375 120 425 120 425 160', INK, 12) +
    rect(345, 160, 110, 62, 16, INK) +
    rect(360, 212, 80, 50, 14, p.c) +
    rect(320, 245, 160, 398, 56, p.c) +
    rect(320, 430, 160, 64, 0, p.d) +
    path('M430 245 H424 A56 56 0 0 1 480 301 V587 A56 56 0 0 1 424 643 H430 Z', p.d, { opacity: 0.3 }) +
    highlight(345, 290, 300, 16),
  throw: (p) => folded(p, 'fringe'),
  blanket: (p) => folded(p, 'check'),
  towel: (p) => folded(p, 'band'),
  bedding: (p) => folded(p, 'piping'),
  cushion: (p) =>
    shadow(210) +
    path('M225 295 Q400 262 575 295 Q610 470 575 645 Q400 612 225 645 Q190 470 225 295 Z', p.c, { stroke: p.d, 'stroke-width': 8 }) +
    path('M420 600 Q520 600 560 560 Q590 470 565 330 Q600 470 575 640 Q480 625 420 600 Z', p.d, { opacity: 0.3 }) +
    path('M260 320 Q400 296 540 320 Q568 470 540 620 Q400 596 260 620 Q232 470 260 320 Z', 'none', {
      stroke: p.l,
      'stroke-width': 4,
      'stroke-dasharray': '12 10',
      opacity: 0.8,
    }) +
    circle(400, 470, 16, p.dd) +
    circle(400, 470, 6, p.d),
  vase: (p) =>
    shadow(150) +
    stroke('M400 270 C390 200 360 150 330 110', '#7A6A4F', 5) +
    stroke('M400 270 C410 190 450 140 480 100', '#7A6A4F', 5) +
    [
      [345, 140, -40],
      [325, 190, -80],
      [460, 130, 40],
      [480, 180, 70],
      [420, 190, 20],
      [370, 220, -30],
    ]
      .map(([x, y, a]) => group(`translate(${x} ${y}) rotate(${a})`, ellipse(0, 0, 16, 26, '#8FAF8A')))
      .join('') +
    path('M372 262 H428 L432 330 C548 380 566 560 482 642 H318 C234 560 252 380 368 330 Z', p.c) +
    path('M432 330 C548 380 566 560 482 642 H440 C510 560 500 400 420 340 Z', p.d, { opacity: 0.3 }) +
    ellipse(400, 262, 30, 8, p.dd) +
    highlight(315, 420, 150, 16),
  candle: (p) =>
    shadow(150) +
    glow(400, 300, 120, 0.25) +
    flame(400, 345) +
    stroke('M400 345 V360', INK, 4) +
    rect(290, 360, 220, 282, 30, p.c) +
    rect(290, 360, 220, 282, 30, '#FFFFFF', { opacity: 0.15 }) +
    rect(290, 470, 220, 104, 0, '#2E3B4E') +
    rect(330, 505, 140, 8, 4, '#FFFFFF', { opacity: 0.8 }) +
    rect(355, 530, 90, 6, 3, '#FFFFFF', { opacity: 0.5 }) +
    highlight(310, 385, 70, 14),
  tapers: (p) =>
    shadow(150) +
    [
      [330, 300],
      [400, 250],
      [470, 320],
    ]
      .map(
        ([x, top]) =>
          glow(x ?? 0, (top ?? 0) - 30, 60, 0.2) +
          flame(x ?? 0, (top ?? 0) - 4, 0.7) +
          rect((x ?? 0) - 17, top ?? 0, 34, 560 - (top ?? 0), 8, p.c) +
          rect((x ?? 0) + 4, top ?? 0, 13, 560 - (top ?? 0), 6, p.d, { opacity: 0.3 }),
      )
      .join('') +
    rect(290, 555, 220, 26, 12, '#C9A24A') +
    rect(390, 575, 20, 60, 4, '#B08A36') +
    ellipse(400, 640, 110, 16, '#B08A36'),
  plant: (p) =>
    shadow(150) +
    [
      [-60, 1.1, 0],
      [-30, 1.25, 1],
      [0, 1.35, 2],
      [28, 1.2, 0],
      [58, 1.05, 1],
      [-12, 0.9, 1],
      [14, 0.95, 2],
    ]
      .map(([a, s, c]) => leaf(400, 470, a ?? 0, s ?? 1, LEAF[c ?? 0] ?? '#3F7A4E'))
      .join('') +
    path('M296 480 H504 L478 642 H322 Z', p.c) +
    path('M450 480 H504 L478 642 H440 Z', p.d, { opacity: 0.3 }) +
    rect(280, 456, 240, 44, 10, p.c) +
    rect(280, 486, 240, 14, 0, p.d, { opacity: 0.35 }),
  planter: (p) =>
    shadow(220) +
    Array.from({ length: 11 }, (_, i) =>
      leaf(245 + i * 31, 500, ((i * 37) % 50) - 25, 0.5 + ((i * 13) % 5) / 20, LEAF[i % 3] ?? '#5C9A5F'),
    ).join('') +
    rect(215, 480, 370, 165, 10, p.c) +
    [535, 590].map((y) => stroke(`M215 ${y} H585`, p.d, 4, { opacity: 0.5 })).join('') +
    rect(205, 470, 390, 26, 6, p.d) +
    [260, 540].map((x) => circle(x, 560, 6, p.dd)).join(''),
  rug: (p) =>
    path('M130 632 L290 352 H690 L530 632 Z', '#000000', { opacity: 0.08, transform: 'translate(10 12)' }) +
    path('M130 620 L290 340 H690 L530 620 Z', p.c) +
    path('M192 588 L314 374 H628 L506 588 Z', 'none', { stroke: p.d, 'stroke-width': 12 }) +
    path('M410 392 L482 480 L410 568 L338 480 Z', p.dd) +
    path('M410 430 L450 480 L410 530 L370 480 Z', p.l) +
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
      .map((i) => {
        const t = i / 8;
        return stroke(`M${130 + 160 * t} ${620 - 280 * t} l-26 0`, p.d, 4) + stroke(`M${530 + 160 * t} ${620 - 280 * t} l26 0`, p.d, 4);
      })
      .join(''),
  clock: (p) =>
    circle(410, 412, 232, '#000000', { opacity: 0.08 }) +
    circle(400, 400, 232, p.c) +
    circle(400, 400, 196, '#FAF7F0') +
    Array.from({ length: 12 }, (_, i) => group(`rotate(${i * 30} 400 400)`, rect(395, 220, 10, i % 3 === 0 ? 40 : 22, 4, INK))).join('') +
    group('rotate(-60 400 400)', rect(393, 290, 14, 120, 7, INK)) +
    group('rotate(50 400 400)', rect(396, 240, 8, 170, 4, INK)) +
    group('rotate(160 400 400)', rect(398, 230, 4, 190, 2, '#C0392B')) +
    circle(400, 400, 14, INK),
  basket: (p) =>
    shadow(200) +
    group('translate(345 360)', circle(0, 0, 62, '#AE4F2C') + stroke('M0 0 m-36 0 a36 36 0 1 1 36 36 a20 20 0 1 1 -20 -20', '#8A3E22', 6)) +
    group('translate(460 350)', circle(0, 0, 58, '#93A985') + stroke('M0 0 m-32 0 a32 32 0 1 1 32 32 a18 18 0 1 1 -18 -18', '#6F8762', 6)) +
    path('M240 385 H560 L530 645 H270 Z', p.c) +
    [425, 465, 505, 545, 585, 625]
      .map((y) => stroke(`M${240 + (y - 385) / 9} ${y} H${560 - (y - 385) / 9}`, p.d, 5, { opacity: 0.6 }))
      .join('') +
    [290, 340, 390, 440, 490]
      .map((x, i) => stroke(`M${x + 15} ${405 + (i % 2) * 20} V630`, p.d, 3, { opacity: 0.35, 'stroke-dasharray': '20 20' }))
      .join('') +
    rect(230, 370, 340, 32, 14, p.d) +
    rect(268, 420, 52, 22, 11, p.bg) +
    rect(480, 420, 52, 22, 11, p.bg),
  tote: (p) =>
    shadow(200) +
    stroke('M320 340 C320 150 480 150 480 340', p.d, 22) +
    stroke('M335 340 C335 175 465 175 465 340', p.dd, 6, { opacity: 0.4 }) +
    path('M245 330 H555 L575 645 H225 Z', p.c) +
    path('M470 330 H555 L575 645 H500 Z', p.d, { opacity: 0.25 }) +
    rect(245, 330, 310, 34, 0, p.d, { opacity: 0.55 }) +
    stroke('M255 378 H545', p.ll, 3, { 'stroke-dasharray': '10 8', opacity: 0.7 }) +
    rect(300, 470, 70, 36, 4, p.ll, { opacity: 0.85 }),
  beanie: (p) =>
    shadow(190) +
    circle(400, 300, 56, p.l) +
    [
      [372, 272],
      [420, 268],
      [436, 316],
      [368, 322],
      [400, 296],
    ]
      .map(([x, y]) => circle(x ?? 0, y ?? 0, 14, p.ll, { opacity: 0.5 }))
      .join('') +
    path('M245 530 C245 300 555 300 555 530 Z', p.c) +
    [290, 330, 370, 410, 450, 490, 530]
      .map((x) => stroke(`M${x} ${x < 330 || x > 490 ? 450 : 385} V520`, p.d, 5, { opacity: 0.35 }))
      .join('') +
    rect(228, 510, 344, 120, 28, p.d) +
    [260, 290, 320, 350, 380, 410, 440, 470, 500, 530].map((x) => stroke(`M${x + 10} 528 V612`, p.dd, 5, { opacity: 0.35 })).join('') +
    rect(470, 545, 56, 34, 4, '#8B5E3C'),
  scarf: (p) =>
    shadow(180) +
    group(
      'rotate(-6 360 460)',
      rect(318, 300, 84, 320, 10, p.d) +
        [560, 590].map((y) => rect(318, y, 84, 10, 0, p.ll, { opacity: 0.7 })).join('') +
        [326, 344, 362, 380, 396].map((x) => stroke(`M${x} 620 V652`, p.d, 5)).join(''),
    ) +
    group(
      'rotate(5 440 460)',
      rect(400, 300, 84, 300, 10, p.c) +
        [540, 570].map((y) => rect(400, y, 84, 10, 0, p.ll, { opacity: 0.7 })).join('') +
        [408, 426, 444, 462, 478].map((x) => stroke(`M${x} 600 V632`, p.c, 5)).join(''),
    ) +
    ellipse(400, 280, 150, 70, 'none', { stroke: p.c, 'stroke-width': 64 }) +
    path('M270 300 C320 350 480 350 530 300', 'none', { stroke: p.d, 'stroke-width': 10, opacity: 0.35 }),
  tshirt: (p) =>
    shadow(200) +
    path(
      'M305 225 L228 255 L146 352 L214 416 L262 372 L262 642 H538 L538 372 L586 416 L654 352 L572 255 L495 225 C478 268 322 268 305 225 Z',
      p.c,
    ) +
    path('M305 225 C322 268 478 268 495 225', 'none', { stroke: p.d, 'stroke-width': 12 }) +
    path('M538 372 L538 642 H490 C500 520 510 420 538 372 Z', p.d, { opacity: 0.25 }) +
    stroke('M162 338 L228 400', p.d, 5, { opacity: 0.5 }) +
    stroke('M638 338 L572 400', p.d, 5, { opacity: 0.5 }) +
    stroke('M262 615 H538', p.d, 5, { opacity: 0.4 }),
  socks: (p) => shadow(210) + group('translate(-80 -30)', sock(p.d, p)) + sock(p.c, p),
  'down-jacket': (p) => jacket(p, true),
  'rain-jacket': (p) => jacket(p, false),
  apron: (p) =>
    shadow(190) +
    stroke('M335 205 C330 110 470 110 465 205', p.dd, 14) +
    stroke('M250 345 C200 360 180 420 205 470', p.dd, 12) +
    stroke('M550 345 C600 360 620 420 595 470', p.dd, 12) +
    path('M330 200 H470 L476 300 C520 318 552 330 570 340 L560 642 H240 L230 340 C248 330 280 318 324 300 Z', p.c) +
    path('M330 200 H470 L476 300 C520 318 552 330 570 340 L560 642 H240 L230 340 C248 330 280 318 324 300 Z', 'none', {
      stroke: p.ll,
      'stroke-width': 3,
      'stroke-dasharray': '10 8',
      opacity: 0.5,
      transform: 'translate(400 420) scale(0.94) translate(-400 -420)',
    }) +
    rect(300, 450, 200, 112, 10, p.d) +
    stroke('M400 456 V556', p.dd, 4),
  backpack: (p) =>
    shadow(200) +
    stroke('M360 235 C360 190 440 190 440 235', p.dd, 16) +
    rect(215, 420, 50, 170, 18, p.d) +
    rect(535, 420, 50, 170, 18, p.d) +
    rect(250, 230, 300, 412, 72, p.c) +
    path('M250 302 Q250 230 322 230 H478 Q550 230 550 302 V372 Q400 414 250 372 Z', p.d) +
    [335, 465].map((x) => rect(x - 16, 350, 32, 110, 8, p.dd) + rect(x - 20, 430, 40, 24, 5, '#C9CDD2')).join('') +
    rect(300, 478, 200, 128, 32, p.d, { opacity: 0.75 }) +
    stroke('M320 500 H480', p.dd, 4, { opacity: 0.6 }) +
    rect(375, 560, 50, 28, 5, '#8B5E3C'),
  lantern: (p) =>
    shadow(140) +
    glow(400, 420, 190, 0.22) +
    circle(400, 168, 34, 'none', { stroke: p.c, 'stroke-width': 10 }) +
    rect(318, 250, 164, 300, 10, '#FFF4D6', { opacity: 0.75 }) +
    glow(400, 440, 70, 0.45) +
    rect(382, 445, 36, 105, 6, '#F6F0E2') +
    flame(400, 442, 0.8) +
    path('M330 252 H470 L438 204 H362 Z', p.c) +
    rect(386, 190, 28, 20, 6, p.c) +
    [318, 472].map((x) => rect(x, 250, 10, 300, 5, p.c)).join('') +
    stroke('M400 252 V440', p.c, 4, { opacity: 0.7 }) +
    rect(300, 546, 200, 70, 12, p.c) +
    rect(300, 600, 200, 16, 8, p.d) +
    rect(312, 560, 176, 8, 4, p.l, { opacity: 0.5 }),
  chair: (p) =>
    shadow(200) +
    stroke('M250 645 L430 240', WOOD_D, 20) +
    stroke('M565 645 L345 420', WOOD, 20) +
    stroke('M418 262 C372 395 430 522 552 560', p.c, 104, { 'stroke-linecap': 'butt' }) +
    stroke('M418 262 C372 395 430 522 552 560', '#FFFFFF', 64, { 'stroke-linecap': 'butt' }) +
    stroke('M418 262 C372 395 430 522 552 560', p.c, 32, { 'stroke-linecap': 'butt' }) +
    stroke('M300 540 L560 540', WOOD, 16) +
    stroke('M430 240 L470 250', WOOD_D, 20),
  stringlights: (p) =>
    [
      [80, 250, 400, 470, 720, 250],
      [60, 430, 400, 640, 740, 430],
    ]
      .map(
        ([x0, y0, x1, y1, x2, y2]) =>
          stroke(`M${x0} ${y0} Q${x1} ${y1} ${x2} ${y2}`, p.c === PALETTE.Black ? '#0E0E0E' : p.c, 5) +
          [0.1, 0.23, 0.36, 0.5, 0.64, 0.77, 0.9]
            .map((t) => {
              const x = (1 - t) ** 2 * (x0 ?? 0) + 2 * (1 - t) * t * (x1 ?? 0) + t ** 2 * (x2 ?? 0);
              const y = (1 - t) ** 2 * (y0 ?? 0) + 2 * (1 - t) * t * (y1 ?? 0) + t ** 2 * (y2 ?? 0);
              return (
                glow(x, y + 36, 36, 0.35) +
                rect(x - 7, y - 2, 14, 18, 3, '#2A2A2A') +
                path(
                  `M${x - 7} ${y + 16} C${x - 24} ${y + 30} ${x - 16} ${y + 58} ${x} ${y + 58} C${x + 16} ${y + 58} ${x + 24} ${y + 30} ${x + 7} ${y + 16} Z`,
                  '#FFE9B0',
                )
              );
            })
            .join(''),
      )
      .join(''),
  lamp: (p) =>
    shadow(150) +
    path('M240 420 H560 L660 652 H140 Z', GLOW, { opacity: 0.22 }) +
    rect(390, 410, 20, 180, 8, p.dd) +
    path('M320 640 Q320 585 400 585 Q480 585 480 640 Z', p.d) +
    path('M292 225 H508 L568 420 H232 Z', p.c) +
    path('M452 225 H508 L568 420 H500 Z', p.d, { opacity: 0.3 }) +
    rect(232, 410, 336, 14, 7, p.d) +
    highlight(300, 250, 140, 14),
  pendant: (p) =>
    path('M250 470 H550 L720 800 H80 Z', GLOW, { opacity: 0.25 }) +
    rect(370, 0, 60, 18, 4, INK) +
    stroke('M400 18 V300', INK, 6) +
    rect(378, 292, 44, 40, 8, p.dd) +
    path('M220 480 C220 300 580 300 580 480 Z', p.c) +
    path('M470 330 C540 360 580 410 580 480 H520 C520 420 510 370 470 330 Z', p.d, { opacity: 0.3 }) +
    ellipse(400, 480, 180, 26, p.dd) +
    circle(400, 492, 38, '#FFF3C8') +
    highlight(280, 380, 70, 14),
  floorlamp: (p) =>
    shadow(150) +
    glow(400, 200, 170, 0.25) +
    stroke('M400 330 L290 648', p.c, 12) +
    stroke('M400 330 L510 648', p.c, 12) +
    stroke('M400 330 L410 648', p.d, 10) +
    stroke('M400 240 V340', p.c, 12) +
    circle(400, 335, 14, p.d) +
    path('M325 100 H475 L525 248 H275 Z', '#EFE6D6') +
    path('M440 100 H475 L525 248 H480 Z', '#D9CDB8') +
    rect(275, 240, 250, 12, 6, '#D9CDB8'),
  bulb: (p) =>
    glow(400, 350, 230, 0.28) +
    circle(400, 350, 160, '#FFF6DC', { opacity: 0.9, stroke: '#EAD9A6', 'stroke-width': 4 }) +
    stroke('M360 500 V360 L380 300 L400 360 L420 300 L440 360 V500', '#F2A93B', 6) +
    path('M338 490 H462 L452 540 H348 Z', '#FFF6DC', { stroke: '#EAD9A6', 'stroke-width': 4 }) +
    [540, 562, 584, 606].map((y, i) => rect(348, y, 104, 22, 8, i % 2 ? p.d : p.c)).join('') +
    path('M372 628 H428 L414 652 H386 Z', INK) +
    highlight(300, 260, 90, 16),
  giftcard: (p) =>
    shadow(230, 640) +
    group('rotate(9 400 420)', rect(200, 280, 420, 270, 26, p.d)) +
    group(
      'rotate(-6 400 420)',
      rect(180, 290, 440, 280, 26, p.c) +
        path('M180 440 C280 380 360 470 460 400 C520 360 580 380 620 360 V420 C560 450 520 430 460 470 C360 530 280 450 180 500 Z', p.l, {
          opacity: 0.6,
        }) +
        path('M180 480 C300 430 380 520 620 430 V470 C400 560 300 470 180 530 Z', '#B9F2DF', { opacity: 0.45 }) +
        `<text x="216" y="540" font-family="Helvetica, Arial, sans-serif" font-size="36" font-weight="700" letter-spacing="6" fill="#FFFFFF">NORDLYS</text>` +
        rect(216, 326, 70, 50, 10, '#E8D48B') +
        rect(520, 290, 26, 280, 0, '#FFFFFF', { opacity: 0.9 }) +
        ellipse(508, 300, 34, 18, 'none', { stroke: '#FFFFFF', 'stroke-width': 10, transform: 'rotate(-25 508 300)' }) +
        ellipse(560, 300, 34, 18, 'none', { stroke: '#FFFFFF', 'stroke-width': 10, transform: 'rotate(25 560 300)' }) +
        circle(533, 304, 12, '#FFFFFF'),
    ),
};

function folded(p: Paint, pattern: 'fringe' | 'check' | 'band' | 'piping'): string {
  const layers = [
    [205, 548, p.d],
    [192, 458, p.c],
    [212, 368, p.l],
  ] as const;
  return (
    shadow(230) +
    layers
      .map(([x, y, fill], i) => {
        const w = 390;
        let deco = '';
        if (pattern === 'fringe') deco = Array.from({ length: 8 }, (_, k) => stroke(`M${x + w} ${y + 12 + k * 10} h22`, fill, 4)).join('');
        if (pattern === 'check')
          deco =
            [60, 140, 220, 300].map((dx) => rect(x + dx, y, 18, 92, 0, '#FFFFFF', { opacity: 0.3 })).join('') +
            rect(x, y + 38, w, 16, 0, '#FFFFFF', { opacity: 0.3 });
        if (pattern === 'band') deco = rect(x + w - 90, y, 34, 92, 0, i === 2 ? p.c : p.ll, { opacity: 0.75 });
        if (pattern === 'piping') deco = stroke(`M${x + 30} ${y + 14} H${x + w - 10}`, p.ll, 4, { opacity: 0.8 });
        return (
          rect(x, y, w, 92, 28, fill) +
          deco +
          path(
            `M${x + 28} ${y} C${x - 6} ${y} ${x - 6} ${y + 92} ${x + 28} ${y + 92} C${x + 14} ${y + 60} ${x + 14} ${y + 32} ${x + 28} ${y} Z`,
            '#000000',
            { opacity: 0.12 },
          )
        );
      })
      .join('')
  );
}

function sock(fill: string, p: Paint): string {
  const d = 'M300 220 H410 V455 Q410 510 462 522 L570 545 Q622 558 612 606 Q602 650 548 646 L360 640 Q300 636 300 572 Z';
  return (
    path(d, fill) +
    rect(296, 214, 118, 80, 14, p.dd) +
    [316, 340, 364, 388].map((x) => stroke(`M${x} 226 V284`, p.d, 4, { opacity: 0.5 })).join('') +
    rect(300, 360, 110, 22, 0, '#FFFFFF', { opacity: 0.55 }) +
    path('M548 646 Q602 650 612 606 Q622 558 570 545 L560 600 Z', p.dd, { opacity: 0.6 }) +
    path('M300 572 Q300 636 360 640 L370 580 Z', p.dd, { opacity: 0.6 }) +
    [
      [340, 440],
      [380, 500],
      [330, 520],
      [450, 580],
      [520, 600],
      [370, 320],
    ]
      .map(([x, y]) => circle(x ?? 0, y ?? 0, 4, '#FFFFFF', { opacity: 0.5 }))
      .join('')
  );
}

function jacket(p: Paint, quilted: boolean): string {
  const body =
    'M312 205 L240 228 C196 250 180 300 174 360 L150 612 H222 L248 392 L256 645 H544 L552 392 L578 612 H650 L626 360 C620 300 604 250 560 228 L488 205 Z';
  return (
    shadow(230) +
    ellipse(400, 205, 100, 62, p.dd) +
    path(body, p.c) +
    (quilted
      ? [300, 360, 420, 480, 540, 600].map((y) => stroke(`M256 ${y} Q400 ${y + 16} 544 ${y}`, p.d, 5, { opacity: 0.6 })).join('') +
        [300, 380, 460, 540]
          .map(
            (y) =>
              stroke(`M180 ${y} L244 ${y + 10}`, p.d, 4, { opacity: 0.5 }) + stroke(`M620 ${y} L556 ${y + 10}`, p.d, 4, { opacity: 0.5 }),
          )
          .join('')
      : rect(280, 470, 90, 20, 6, p.d) +
        rect(430, 470, 90, 20, 6, p.d) +
        stroke('M360 220 L380 300', p.dd, 4) +
        stroke('M440 220 L420 300', p.dd, 4)) +
    stroke('M400 225 V640', p.dd, 6) +
    path('M312 205 C340 250 460 250 488 205', 'none', { stroke: p.d, 'stroke-width': 14 }) +
    path('M544 392 L544 645 H500 C510 520 520 430 544 392 Z', p.d, { opacity: 0.25 })
  );
}

// ---------------------------------------------------------------- backgrounds and files
const LIGHT_BACKGROUNDS = ['#F3EEE6', '#EAF0EA', '#ECEFF4', '#F6ECE4', '#F0ECF3', '#EAF2F0'];
const MID_BACKGROUNDS = ['#C9D5DF', '#C8D8CB', '#D0CBDB', '#C6D8D9'];
const NIGHT = '#22304A';

function background(kind: Kind, colour: string, key: string): string {
  if (kind === 'stringlights') return NIGHT;
  const list = luminance(colour) > 0.72 ? MID_BACKGROUNDS : LIGHT_BACKGROUNDS;
  return list[hash32(key) % list.length] ?? '#F3EEE6';
}

function svg(width: number, height: number, title: string, body: string): string {
  const safe = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img"><title>${safe}</title>${body}</svg>\n`;
}

function productSvg(kind: Kind, colour: ColorName): string {
  const c = PALETTE[colour];
  const bg = background(kind, c, `${kind}-${colour}`);
  const size = PRODUCT_IMAGE_SIZE;
  const stars =
    kind === 'stringlights'
      ? [
          [120, 110],
          [260, 70],
          [540, 90],
          [680, 150],
          [420, 140],
          [90, 560],
          [700, 600],
        ]
          .map(([x, y]) => circle(x ?? 0, y ?? 0, 3, '#FFFFFF', { opacity: 0.7 }))
          .join('')
      : '';
  const backdrop = rect(0, 0, size, size, 0, bg) + circle(400, 390, 290, mix(bg, kind === 'stringlights' ? '#000000' : c, 0.12)) + stars;
  return svg(size, size, `${kind} in ${COLOR_WORDS[colour].en}`, backdrop + DRAW[kind](paint(c, bg)));
}

const COLLECTION_BACKGROUNDS = ['#EFE6DA', '#E3ECE4', '#E6EAF1', '#F3E4DA', '#ECE6F0', '#E2EEEC', '#F2EAD8', '#E9E4DC'];

function collectionSvg(handle: string, title: string, index: number): string {
  const scene = COLLECTION_SCENES[handle] ?? [];
  const { width, height } = COLLECTION_IMAGE;
  const bg = COLLECTION_BACKGROUNDS[index % COLLECTION_BACKGROUNDS.length] ?? '#EFE6DA';
  const placements = [
    [90, 95, 0.56],
    [372, 40, 0.66],
    [700, 95, 0.56],
  ] as const;
  const items = scene
    .map(([kind, colour], i) => {
      const [x, y, s] = placements[i] ?? placements[0];
      return group(`translate(${x} ${y}) scale(${s})`, DRAW[kind](paint(PALETTE[colour], bg)));
    })
    .join('');
  const decor =
    circle(210, 120, 170, mix(bg, '#FFFFFF', 0.35)) +
    circle(1040, 470, 210, mix(bg, '#000000', 0.04)) +
    rect(0, 520, width, 80, 0, mix(bg, '#000000', 0.05));
  return svg(width, height, title, rect(0, 0, width, height, 0, bg) + decor + items);
}

function writeAll(dir: string, files: Map<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const existing of readdirSync(dir)) if (existing.endsWith('.svg') && !files.has(existing)) unlinkSync(join(dir, existing));
  for (const [name, content] of files) writeFileSync(join(dir, name), content);
}

const root = join(new URL('..', import.meta.url).pathname, 'public');
const products = new Map(allProductImages().map((ref) => [ref.file, productSvg(ref.kind, ref.color)]));
const titles = new Map([...DEMO_COLLECTIONS, ...OUTLET_COLLECTIONS].map((c) => [c.handle, c.title.en]));
const collections = new Map(
  allCollectionHandles().map((handle, i) => [`${handle}.svg`, collectionSvg(handle, titles.get(handle) ?? handle, i)]),
);
writeAll(join(root, 'products'), products);
writeAll(join(root, 'collections'), collections);
console.log(`Wrote ${products.size} product and ${collections.size} collection illustrations to public/.`);
