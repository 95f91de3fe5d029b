'use client';
import { useState } from 'react';
import type { Image } from '@/lib/contract/common';
import { useSelection } from './product-selection';

/** Which variant shows which image: the API's own match (`variant.image`), in every language. */
export type VariantImage = { options: Record<string, string>; imageUrl: string | null };

/** The image of the variant with these options, else the first. */
function imageFor(images: Image[], variants: VariantImage[], options: Record<string, string>): number {
  const names = Object.keys(options);
  const variant = variants.find((v) => names.every((name) => v.options[name] === options[name]));
  return Math.max(
    0,
    images.findIndex((image) => image.url === variant?.imageUrl),
  );
}

export function ProductGallery({ images, variants, label }: { images: Image[]; variants: VariantImage[]; label: string }) {
  const { options } = useSelection();
  const key = JSON.stringify(options);
  const [picked, setPicked] = useState<{ key: string; index: number } | null>(null);
  // A thumbnail click wins until the shopper picks another variant.
  const current = picked && picked.key === key ? picked.index : imageFor(images, variants, options);
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
