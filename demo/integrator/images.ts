// Placeholder product pictures, one per category, served by the integrator at `/images/{name}.svg` so cards and the
// feed carry image URLs that really load. Plain shapes, no scripts, no external references. No words drawn in them:
// a product card shows its picture's middle at 4:3, which cut a label at the bottom in half, and the order card's
// 40 px thumbnail made it a smudge (the name is beside the picture in both; `<title>` names it).
import { CATEGORY_IMAGES, type Category } from './catalog';

interface Picture {
  label: string;
  background: string;
  colour: string;
  /** SVG shapes drawn in `colour` on a 160 × 160 canvas. */
  shapes: string;
}

const PICTURES: Record<Category, Picture> = {
  'running-shoes': {
    label: 'Running shoe',
    background: '#fff4d6',
    colour: '#e85d04',
    shapes: '<path d="M24 98c10-2 22-14 30-30l14 6c8 4 18 4 26 0l8 12c12 8 30 10 38 14v14H24z"/>',
  },
  'hiking-boots': {
    label: 'Hiking boot',
    background: '#efe6da',
    colour: '#7f4f24',
    shapes: '<path d="M46 36h36v46c14 2 30 8 38 18v14H40V86c4-6 6-14 6-22z"/>',
  },
  't-shirts': {
    label: 'T-shirt',
    background: '#e6f0fa',
    colour: '#1d4e89',
    shapes: '<path d="M58 34l-30 16 10 22 12-6v56h60V66l12 6 10-22-30-16c-4 8-12 12-22 12s-18-4-22-12z"/>',
  },
  'rain-jackets': {
    label: 'Rain jacket',
    background: '#fffbe0',
    colour: '#d4a017',
    shapes: '<path d="M80 26c-14 0-22 10-22 18l-26 14-6 62h108l-6-62-26-14c0-8-8-18-22-18z"/>',
  },
  socks: {
    label: 'Socks',
    background: '#eef3ee',
    colour: '#4a7c59',
    shapes: '<path d="M62 28h32v58l14 14c8 8 2 22-10 22-6 0-10-2-14-6L66 98c-3-3-4-7-4-11z"/>',
  },
  backpacks: {
    label: 'Backpack',
    background: '#e8f4ec',
    colour: '#2d6a4f',
    shapes:
      '<rect x="46" y="40" width="68" height="86" rx="18"/><path d="M66 40c0-16 28-16 28 0h-8c0-6-12-6-12 0z"/>',
  },
  'water-bottles': {
    label: 'Water bottle',
    background: '#e3f4f8',
    colour: '#0077b6',
    shapes:
      '<rect x="70" y="22" width="20" height="14" rx="3"/><rect x="58" y="38" width="44" height="92" rx="12"/>',
  },
};

/** Served file name (`running-shoe.svg`) → SVG document. */
export const IMAGES: ReadonlyMap<string, string> = new Map(
  (Object.keys(PICTURES) as Category[]).map((category) => {
    const { label, background, colour, shapes } = PICTURES[category];
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160" role="img">` +
      `<title>${label}</title><rect width="160" height="160" fill="${background}"/>` +
      `<g fill="${colour}">${shapes}</g></svg>\n`;
    return [`${CATEGORY_IMAGES[category]}.svg`, svg];
  }),
);
