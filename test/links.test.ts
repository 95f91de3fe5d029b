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

  it('leaves link-like text inside other strings alone, and escapes nothing it should not', () => {
    const body = {
      description: 'See {"url":"/products/other.svg"} and "url":"/x"',
      tricky: 'ends with a backslash \\',
      url: '/products/a "quoted" name.svg',
      nested: [{ checkoutUrl: '/checkout/cs_2', url: '/' }],
      notString: { url: 7 },
    };
    const out = JSON.parse(stringifyWithLinks(body, 'https://shop.example'));
    expect(out).toEqual({
      ...body,
      url: 'https://shop.example/products/a "quoted" name.svg',
      nested: [{ checkoutUrl: 'https://shop.example/checkout/cs_2', url: 'https://shop.example/' }],
    });
    expect(stringifyWithLinks(undefined, 'https://shop.example')).toBeUndefined();
  });

  it("takes the configured public origin over the request's, and the request's Host and forwarded scheme over the listening address", () => {
    const req = (headers: Record<string, string>) => new Request('http://127.0.0.1:3000/site/v1/site', { headers });
    expect(publicOrigin(req({}), undefined)).toBe('http://127.0.0.1:3000');
    expect(publicOrigin(req({ host: 'Shop.Example:8443' }), undefined)).toBe('http://shop.example:8443');
    expect(publicOrigin(req({ host: 'shop.example', 'x-forwarded-proto': 'https, http' }), undefined)).toBe('https://shop.example');
    expect(publicOrigin(req({ host: 'evil"/><x', 'x-forwarded-proto': 'javascript' }), undefined)).toBe('http://127.0.0.1:3000');
    expect(publicOrigin(req({ host: 'shop.example' }), 'https://configured.example')).toBe('https://configured.example');
  });

  it("reads the request's own origin as the URL parser would, whatever its path and query", () => {
    for (const url of [
      'http://127.0.0.1:3000/site/v1/site',
      'https://Shop.Example:443/site/v1/commerce/availability?variantIds=a,b/c',
      'http://[::1]:3100/site/v1/commerce/products/k%C3%A5l?market=SE',
      'https://shop.example?x=1',
      'http://shop.example',
    ]) {
      const request = new Request(url, { headers: { host: 'not a host' } });
      expect(publicOrigin(request, undefined), url).toBe(new URL(url).origin);
    }
  });
});
