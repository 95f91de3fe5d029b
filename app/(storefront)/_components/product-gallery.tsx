'use client';
import { useState } from 'react';
import type { Image } from '@/lib/contract/common';
import { useSelection } from './product-selection';

/** An image "shows" an option value when its alt text names it ("… in sage"). */
function imageFor(images: Image[], values: string[]): number {
  const words = values.map((v) => v.toLowerCase());
  const index = images.findIndex((image) => {
    const alt = image.alt.toLowerCase();
    return words.some((w) => new RegExp(`(^|\\W)${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|\\W)`).test(alt));
  });
  return Math.max(0, index);
}

export function ProductGallery({ images, label }: { images: Image[]; label: string }) {
  const { options } = useSelection();
  const key = JSON.stringify(options);
  const [picked, setPicked] = useState<{ key: string; index: number } | null>(null);
  // A thumbnail click wins until the shopper picks another variant.
  const current = picked && picked.key === key ? picked.index : imageFor(images, Object.values(options));
  const main = images[current];
  if (!main) return null;
  return (
    <div>
      <div className="gallery-main">
        {/* eslint-disable-next-line @next/next/no-img-element -- the seed's SVGs need no optimiser */}
        <img src={main.url} alt={main.alt} width={main.width} height={main.height} fetchPriority="high" />
      </div>
      {images.length > 1 ? (
        <ul className="gallery-thumbs" aria-label={label}>
          {images.map((image, i) => (
            <li key={image.url}>
              <button type="button" aria-pressed={i === current} onClick={() => setPicked({ key, index: i })} aria-label={image.alt}>
                {/* eslint-disable-next-line @next/next/no-img-element -- the seed's SVGs need no optimiser */}
                <img src={image.url} alt="" width={76} height={76} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
