import { describe, expect, it } from 'vitest';
import { publicOrigin, stringifyWithLinks } from '@/lib/http/links';

describe('links in answers', () => {
  it('makes paths of this deployment absolute in link fields only', () => {
    const body = {
      images: [{ url: '/products/mug.svg', alt: '/not/a/link' }],
      checkoutUrl: '/checkout/cs_1',
      other: { url: 'https://cdn.example/x.png' },
      protocolRelative: { url: '//evil.example/x' },
      title: '/products/mug.svg',
    };
    expect(JSON.parse(stringifyWithLinks(body, 'https://shop.example'))).toEqual({
      images: [{ url: 'https://shop.example/products/mug.svg', alt: '/not/a/link' }],
      checkoutUrl: 'https://shop.example/checkout/cs_1',
      other: { url: 'https://cdn.example/x.png' },
      protocolRelative: { url: '//evil.example/x' },
      title: '/products/mug.svg',
    });
  });

  it('takes the configured public origin over the request\'s', () => {
    const req = new Request('http://127.0.0.1:3000/site/v1/site');
    expect(publicOrigin(req, undefined)).toBe('http://127.0.0.1:3000');
    expect(publicOrigin(req, 'https://shop.example')).toBe('https://shop.example');
  });
});
